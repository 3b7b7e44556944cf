  if [ -x node_modules/.bin/memdir ]; then memdir_command=node_modules/.bin/memdir
  elif command -v memdir >/dev/null 2>&1; then memdir_command=memdir
  else
    echo "memdir pre-commit: memdir is not in node_modules/.bin or on PATH; install it (npm install --save-dev memdir) or remove this hook (npx memdir hooks uninstall --git); commit not checked" >&2
    return 0
  fi
