#!/usr/bin/env bash
# Static checks of the deployment files (docker/, deploy/): yamllint on every YAML file, promtool on the alert
# rules (syntax and unit tests) and the compose Prometheus config, haproxy -c, the Kubernetes manifests rendered
# with `kubectl kustomize` and checked for consistency offline, the compose file, the Dockerfile rules
# (hadolint is not packaged for Debian) and the Grafana dashboard JSON.
# Needs: yamllint, prometheus (promtool), haproxy, python3 with PyYAML (python3-yaml, a yamllint dependency);
# kubectl when available (else the manifests are checked without rendering, and the output says so).
# Usage: bash tests/checks/deploy.sh ROOT
set -uo pipefail
root=$(cd "${1:-.}" && pwd) || exit 1
cd "$root" || exit 1
status=0
step() {  # step NAME COMMAND...: runs the command, prints its output only when it fails
    local out
    if out=$("${@:2}" 2>&1); then
        echo "ok   $1"
    else
        echo "FAIL $1"; echo "$out" | sed 's/^/     /' | tail -40; status=1
    fi
}
need() {
    command -v "$1" >/dev/null && return 0
    echo "FAIL $1 not installed (Debian package $2)"; status=1; return 1
}

python=""
for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import yaml' 2>/dev/null; then python=$candidate; break; fi
done
[ -z "$python" ] && { echo "FAIL no python3 with PyYAML (Debian package python3-yaml)"; exit 1; }
tools=deploy/tools

step "tool unit tests" "$python" "$tools/tools_test.py"

if need yamllint yamllint; then
    mapfile -t yaml_files < <({ git ls-files -- '*.yaml' '*.yml'; find docker deploy -name '*.yaml' -o -name '*.yml'; } |
        sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done)
    step "yamllint (${#yaml_files[@]} files)" yamllint --strict -c deploy/.yamllint "${yaml_files[@]}"
fi

if need promtool prometheus; then
    step "promtool check rules" promtool check rules deploy/prometheus/alerts.yaml
    step "promtool test rules" promtool test rules deploy/prometheus/alerts_test.yaml
    step "promtool check config (compose)" promtool check config --syntax-only docker/prometheus.yml
fi

if need haproxy haproxy; then
    step "haproxy -c (compose)" haproxy -c -q -f docker/haproxy.cfg
fi

kustomizations=$(find deploy -name kustomization.yaml -exec dirname {} \; | sort)
if command -v kubectl >/dev/null; then
    render=$(mktemp -d)
    trap 'rm -rf "$render"' EXIT
    for dir in $kustomizations; do
        out="$render/$(echo "$dir" | tr / _).yaml"
        step "kubectl kustomize $dir" kubectl kustomize "$dir" -o "$out"
        [ -s "$out" ] && step "manifests consistent: $dir" "$python" "$tools/check_deploy.py" kubernetes "$out"
    done
else
    echo "note kubectl not installed: manifests checked from the kustomization resources without rendering"
    for dir in $kustomizations; do
        step "manifests consistent (unrendered): $dir" "$python" "$tools/check_deploy.py" kustomize "$dir"
    done
fi

step "compose file" "$python" "$tools/check_deploy.py" compose "$root"
step "Dockerfile rules" "$python" "$tools/check_deploy.py" dockerfile "$root"
step "healthcheck script syntax" bash -n docker/healthcheck.sh
step "alerts have runbooks" "$python" "$tools/check_deploy.py" alerts deploy/prometheus/alerts.yaml deploy/README.md
step "dashboard JSON" "$python" "$tools/check_deploy.py" dashboard deploy/grafana/syncml-dashboard.json
step "dashboard is generated" "$python" "$tools/make_dashboard.py" --check

[ $status -eq 0 ] && echo "deploy checks ok"
exit $status
