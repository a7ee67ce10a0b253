#!/bin/sh
# Regenerate corpus/*.dd from corpus/expressions.txt with tcpdump -dd.
# Each file: a "# expr" comment line, then the tcpdump -dd program.
set -eu
dir=$(dirname "$0")/corpus
n=0
skipped=0
rm -f "$dir"/*.dd
while IFS= read -r expr; do
	[ -n "$expr" ] || continue
	n=$((n + 1))
	out=$(printf '%s/%03d.dd' "$dir" "$n")
	if prog=$(tcpdump -dd -y EN10MB "$expr" 2>/dev/null); then
		{ printf '# %s\n' "$expr"; printf '%s\n' "$prog"; } >"$out"
	else
		skipped=$((skipped + 1))
		echo "skip: $expr" >&2
	fi
done <"$dir/expressions.txt"
echo "corpus: $((n - skipped)) programs, $skipped skipped"
