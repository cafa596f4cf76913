#!/bin/sh
# Writes the expected result of our own Vintner cases with the reference
# implementation: expected.yaml for a case the reference resolves, an
# "error:" line in test.yaml for one it rejects (exit status 3 of case.js).
#
#   sh testdata/vintner/expect.sh [CASE_DIR...]     (default: every case)
#
# CASE_JS is the reference's case runner (default: the shared tools beside
# the repository); VINTNER_DIR its installation, as for the shared tools.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
casejs="${CASE_JS:-$here/../../../shared/tools/vintner/case.js}"
if [ "$#" -eq 0 ]; then
	set -- "$here"/*/*/
fi
for dir in "$@"; do
	dir="${dir%/}"
	rm -f "$dir/expected.yaml"
	if [ -f "$dir/test.yaml" ]; then
		sed -i '/^error:/d' "$dir/test.yaml"
	fi
	status=0
	out="$(node "$casejs" "$dir" --output "$dir/expected.yaml")" || status=$?
	case "$status" in
	0) echo "resolved  ${dir#"$here"/}" ;;
	3)
		rm -f "$dir/expected.yaml"
		printf 'error: %s\n' "$(node -e 'process.stdout.write(JSON.stringify(process.argv[1]))' "$out")" >>"$dir/test.yaml"
		echo "rejected  ${dir#"$here"/}: $out"
		;;
	*)
		echo "case.js failed on $dir (exit status $status): $out" >&2
		exit 1
		;;
	esac
done
