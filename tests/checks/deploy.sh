#!/usr/bin/env bash
# Static checks of the deployment files (docker/, deploy/): yamllint on every YAML file, promtool on the alert
# rules (syntax and unit tests) and the compose Prometheus config, haproxy -c, the Kubernetes manifests rendered
# with `kubectl kustomize` and checked for consistency offline, the compose file, the Dockerfile rules
# (hadolint is not packaged for Debian) and the Grafana dashboard JSON.
# Needs: yamllint, prometheus (promtool), haproxy, python3 with PyYAML (python3-yaml, a yamllint dependency);
# kubectl with kustomize v4 or later when available (Debian 12 has none: its kubernetes-client 1.20 is too old; without
# one the manifests are checked without rendering, and the output says so). Renders the kustomizations, and the base
# with each component of deploy/kubernetes/components and with all of them.
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

# Kustomizations to render on their own (components are rendered on top of the base below), and the combinations:
# the base alone, with each component, and with all of them.
kustomizations=$(find deploy -name kustomization.yaml -exec dirname {} \; | sort |
    while read -r dir; do grep -q '^kind: Component' "$dir/kustomization.yaml" || echo "$dir"; done)
base=deploy/kubernetes/base
components=$(find deploy/kubernetes/components -mindepth 2 -maxdepth 2 -name kustomization.yaml -exec dirname {} \; |
    sort)
combinations=()
for component in $components; do combinations+=("$component"); done
combinations+=("$(echo $components | tr ' ' ,)")
# kubectl's built-in kustomize renders components from v4 on (kubectl 1.21); Debian 12's kubernetes-client is 1.20
# with kustomize 2.0, which cannot even render the base: such a kubectl counts as missing.
kustomize_major=""
if command -v kubectl >/dev/null; then
    kustomize_major=$(kubectl version --client 2>/dev/null | sed -n 's/^Kustomize Version: v\([0-9]*\).*/\1/p')
fi
render=$(mktemp -d)
trap 'rm -rf "$render"' EXIT
if [ -n "$kustomize_major" ] && [ "$kustomize_major" -ge 4 ]; then
    for dir in $kustomizations; do
        out="$render/$(echo "$dir" | tr / _).yaml"
        step "kubectl kustomize $dir" kubectl kustomize "$dir" -o "$out"
        [ -s "$out" ] && step "manifests consistent: $dir" "$python" "$tools/check_deploy.py" kubernetes "$out"
    done
    for combination in "${combinations[@]}"; do
        name=$(basename "$base")+$(echo "$combination" | sed 's|deploy/kubernetes/components/||g; s|,|+|g')
        dir="$render/$name"
        mkdir -p "$dir"
        args=()
        {
            echo "apiVersion: kustomize.config.k8s.io/v1beta1"
            echo "kind: Kustomization"
            echo "resources: [$(realpath --relative-to="$dir" "$base")]"
            echo "components:"
            for component in $(echo "$combination" | tr , ' '); do
                echo "  - $(realpath --relative-to="$dir" "$component")"
                args+=(--component "$component")
            done
        } >"$dir/kustomization.yaml"
        step "kubectl kustomize $name" kubectl kustomize "$dir" -o "$dir.yaml"
        [ -s "$dir.yaml" ] &&
            step "manifests consistent: $name" "$python" "$tools/check_deploy.py" kubernetes "$dir.yaml" "${args[@]}"
    done
else
    if command -v kubectl >/dev/null; then
        echo "note kubectl's kustomize is older than v4 (Debian's kubernetes-client): not rendering"
    else
        echo "note kubectl not installed (not in Debian 12 but as kubernetes-client 1.20, too old): not rendering"
    fi
    echo "note the manifests are checked from the kustomizations' resources and components, patches not applied"
    for dir in $kustomizations; do
        step "manifests consistent (unrendered): $dir" "$python" "$tools/check_deploy.py" kustomize "$dir"
    done
    for combination in "${combinations[@]}"; do
        args=()
        for component in $(echo "$combination" | tr , ' '); do args+=(--component "$component"); done
        step "manifests consistent (unrendered): base+$(echo "$combination" | sed 's|deploy/kubernetes/components/||g; s|,|+|g')" \
            "$python" "$tools/check_deploy.py" kustomize "$base" "${args[@]}"
    done
fi
step "image tag is the project version" "$python" "$tools/check_deploy.py" image-version "$root"
step "PrometheusRule is generated from alerts.yaml" "$python" "$tools/make_prometheusrule.py" --check

step "compose file" "$python" "$tools/check_deploy.py" compose "$root"
step "Dockerfile rules" "$python" "$tools/check_deploy.py" dockerfile "$root"
step "healthcheck script syntax" bash -n docker/healthcheck.sh
step "alerts have runbooks" "$python" "$tools/check_deploy.py" alerts deploy/prometheus/alerts.yaml deploy/README.md
step "dashboard JSON" "$python" "$tools/check_deploy.py" dashboard deploy/grafana/syncml-dashboard.json
step "dashboard is generated" "$python" "$tools/make_dashboard.py" --check

[ $status -eq 0 ] && echo "deploy checks ok"
exit $status
