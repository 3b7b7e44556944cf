#!/bin/sh
# Rebuilds bench/recall/public.jsonl, which is not in git: REALTALK and MemSim state no licence, so
# memdir does not redistribute them. Give a clone (or bare mirror) of each repository; the commits
# are the ones in SOURCES.md, and the result must match public.jsonl.sha256 (the frozen set).
#   sh bench/recall/build-public.sh PATH/TO/REALTALK PATH/TO/MemSim
set -eu
realtalk=$1 memsim=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/realtalk" "$work/memsim"
commit=b903e06a9770bf4e5fe9018c3e132889666d3b4a
for file in $(git -C "$realtalk" ls-tree --name-only "$commit" data/ | grep '/Chat_.*\.json$'); do
  git -C "$realtalk" show "$commit:$file" > "$work/realtalk/$(basename "$file")"
done
for name in 01_simple_hybrid 06_noisy_hybrid; do
  git -C "$memsim" show "db9d5d552d6cb1d859f692eb7e6c0fd6d61d3815:data_generation/final_dataset/messages_and_QAs/$name.json" > "$work/memsim/$name.json"
done
node "$here/convert-public.js" "$work/realtalk" "$work/memsim" > "$here/public.jsonl"
cd "$here" && sha256sum -c public.jsonl.sha256
