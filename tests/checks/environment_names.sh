#!/usr/bin/env bash
# Every SYNCML_* name that the scripts around the server use (test.sh, run.sh, tests/, loadtest/, docker/, deploy/)
# is a setting of src/config/config_keys*.cpp or a name reserved there for tests and tools (reserved_variables):
# the server refuses unknown SYNCML_* variables (issue 39), and a script exports its names to every server it
# starts. CMake options (-DSYNCML_...), Docker build arguments (ARG, --build-arg) and the deliberate typos below
# are no environment of the server. Usage: bash tests/checks/environment_names.sh ROOT
set -uo pipefail
root=${1:-.}
cd "$root" || exit 1
# Typos the tests make on purpose, to see them refused.
deliberate=(SYNCML_DATABSE_URL)

tables=$(ls src/config/config_keys*.cpp)
settings=$(grep -ohE '"SYNCML_[A-Z0-9_]+"' $tables | tr -d '"' | sort -u)
reserved=$(sed -n '/reserved_variables() {/,/^}/p' src/config/config_keys.cpp |
    grep -oE '\{"SYNCML_[A-Z0-9_]+", (true|false)' | sed -E 's/\{"([A-Z0-9_]+)", (true|false)/\1 \2/')
[ -n "$settings" ] && [ -n "$reserved" ] || { echo "no settings or reserved names found in src/config"; exit 1; }

known() {  # known NAME: a setting, a reserved name or prefix, or a deliberate typo
    local name=$1 entry prefix
    grep -qxF "$name" <<<"$settings" && return 0
    for entry in "${deliberate[@]}"; do [ "$name" = "$entry" ] && return 0; done
    while read -r entry prefix; do
        if [ "$prefix" = true ]; then [[ $name == "$entry"* ]] && return 0; else [ "$name" = "$entry" ] && return 0; fi
    done <<<"$reserved"
    return 1
}

files=$(git ls-files --cached --others --exclude-standard -- test.sh run.sh tests loadtest docker deploy |
    grep -vE '\.(cpp|hpp|h|c|json|md)$' | grep -vx tests/checks/environment_names.sh)
status=0
# Names at word starts, without CMake options (-DSYNCML_X, SYNCML_X:BOOL in a CMakeCache.txt) and the Docker build
# arguments (ARG SYNCML_X, which never reach the container's environment).
build_args=$(grep -ohE '^ARG SYNCML_[A-Z0-9_]+' $files | cut -d' ' -f2 | sort -u)
names=$(grep -ohE '(-D)?\bSYNCML_[A-Z0-9_]+(:[A-Z]+)?' $files | grep -vE '^-D|:[A-Z]+$' | sort -u |
    grep -vxF -f <(echo "${build_args:-none}"))
for name in $names; do
    if ! known "$name"; then
        echo "$name: used in $(grep -lw "$name" $files | tr '\n' ' ')but neither a setting nor a reserved name"
        status=1
    fi
done
[ $status -eq 0 ] && echo "environment names ok ($(wc -w <<<"$names") names)"
exit $status
