#!/usr/bin/env bash
# Regenerates the command outputs shown in README.md and docs/*.md, so that they cannot go stale.
# A shown output is a fenced block whose first line is "$ build/mapsim ..." (continued by lines ending
# in "\"), followed by the command's standard output; a last line "..." keeps only as many lines as the
# block shows. Blocks with a command and no output are examples and are left alone. Generated Markdown (a
# table that renders as one) sits between "<!-- $ build/mapsim ... -->" and "<!-- end -->" lines: the
# command's output replaces what is between them.
#   bash scripts/update_docs.sh [--check] [MAPSIM]
# --check: rewrite nothing, print a diff of every stale block and exit 1 if there is one (a ctest test).
# Commands run in a scratch folder holding configs/ (their results/ go there), with MAPSIM (default
# build/mapsim) as build/mapsim.
set -euo pipefail
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
src=$(cd "$(dirname "$0")/.." && pwd)
mapsim=$(realpath "${1:-$src/build/mapsim}")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/build"
ln -s "$src/configs" "$scratch/configs"
ln -s "$mapsim" "$scratch/build/mapsim"

stale=0
for doc in "$src/README.md" "$src"/docs/*.md; do
  out="$scratch/doc.md"
  : >"$out"
  in_block=0 command="" shown=() continued=0 prev="" in_generated=0
  flush() {  # writes the block held in command/shown, refreshed
    local keep=${#shown[@]} ellipsis=0 fresh
    if [ "$keep" -gt 0 ] && [ "${shown[$((keep - 1))]}" = "..." ]; then ellipsis=1; keep=$((keep - 1)); fi
    printf '%s\n' "$command" >>"$out"
    if [ ${#shown[@]} -eq 0 ]; then return; fi
    fresh=$(cd "$scratch" && bash -c "${command#\$ }" 2>/dev/null) || {
      echo "update_docs: ${doc#"$src"/}: '${command#\$ }' failed" >&2
      exit 1
    }
    if [ "$ellipsis" = 1 ]; then fresh=$(printf '%s\n' "$fresh" | head -n "$keep"); fi
    printf '%s\n' "$fresh" >>"$out"
    if [ "$ellipsis" = 1 ]; then echo "..." >>"$out"; fi
  }
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "$in_generated" = 1 ]; then  # the old generated text is dropped up to its end line
      if [ "$line" = '<!-- end -->' ]; then echo "$line" >>"$out"; in_generated=0 prev=$line; fi
      continue
    fi
    if [[ "$line" == '<!-- $ build/mapsim '*' -->' ]]; then
      echo "$line" >>"$out"
      command=${line#'<!-- $ '}
      command=${command%' -->'}
      (cd "$scratch" && bash -c "$command" 2>/dev/null) >>"$out" || {
        echo "update_docs: ${doc#"$src"/}: '$command' failed" >&2
        exit 1
      }
      in_generated=1
      continue
    fi
    if [ "$in_block" = 1 ]; then
      if [ "$line" = '```' ]; then
        flush
        echo '```' >>"$out"
        in_block=0 prev='```'
      elif [ "$continued" = 1 ]; then
        command+=$'\n'"$line"
        [[ "$line" == *\\ ]] || continued=0
      else
        shown+=("$line")
      fi
      continue
    fi
    if [[ "$line" == '$ build/mapsim '* ]] && [ "$prev" = '```' ]; then
      in_block=1 command=$line shown=()
      [[ "$line" == *\\ ]] && continued=1 || continued=0
      continue
    fi
    echo "$line" >>"$out"
    prev=$line
  done <"$doc"
  if ! cmp -s "$doc" "$out"; then
    stale=1
    if [ "$check" = 1 ]; then
      echo "${doc#"$src"/} shows outputs that differ from today's (bash scripts/update_docs.sh):"
      diff "$doc" "$out" || true
    else
      cp "$out" "$doc"
      echo "updated ${doc#"$src"/}"
    fi
  fi
done
[ "$check" = 1 ] && [ "$stale" = 1 ] && exit 1
exit 0
