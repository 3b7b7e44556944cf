# memdir hooks install moved the previous pre-commit hook aside; it still runs, after memdir's check.
exec "$0.memdir-chained" "$@"
