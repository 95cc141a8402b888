#!/usr/bin/env python3
"""Offline consistency checks of the deployment files (no cluster, no Docker engine needed).

  check_deploy.py kubernetes RENDERED.yaml [--component DIR ...]
                                                    manifests as rendered by `kubectl kustomize`; with the
                                                    components the render includes, whose kinds must be in it
  check_deploy.py kustomize DIR [--component DIR ...]
                                                    without kubectl: the resources of DIR and the components
                                                    (recursively, no patches applied) are loaded and checked the
                                                    same way
  check_deploy.py image-version ROOT                the image tag of deploy/kubernetes/base is the version in
                                                    CMakeLists.txt's project()
  check_deploy.py compose ROOT                      docker/compose.yaml against haproxy.cfg and prometheus.yml
  check_deploy.py dashboard FILE                    Grafana dashboard JSON
  check_deploy.py dockerfile ROOT                   docker/Dockerfile, the hadolint-style rules we rely on
  check_deploy.py alerts RULES README               every alert has a severity and a runbook section in README
                                                    that its runbook_url points to (BASE#alertname in lower
                                                    case), and every runbook section has an alert

Checks what a schema check cannot: selectors that select the pods, probe ports that exist, references to
ConfigMaps/Secrets that are rendered (or created out of band, as in deploy/kubernetes/examples/), a termination
grace period that covers the server's drain deadline, no fixed replicas next to an autoscaler, no rendered Secret
that would overwrite one created out of band, a migration Job beside the server; and, in kube_checks.py, API
versions, pod security, image tags, network policies, ingresses, ServiceMonitors, the PrometheusRule against the
tested rule file and the backup CronJob.
"""

import json
import os
import re
import sys

import yaml

import kube_checks

errors = []

# Secrets the operator creates out of band; the files there are examples that no kustomization includes.
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kubernetes", "examples")


def fail(message):
    errors.append(message)


def seconds(text):
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m|h)?", str(text).strip())
    if not match:
        return None
    scale = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, None: 1}[match.group(2)]
    return float(match.group(1)) * scale


def name_of(doc):
    return f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"


def selects(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def base_name(name, rendered):
    """A generated name (name-<hash>) or the plain name, as it appears in the render."""
    return any(n == name or re.fullmatch(re.escape(name) + r"-[a-z0-9]{10}", n) for n in rendered) or any(
        re.fullmatch(re.escape(n) + r"-[a-z0-9]{10}", name) for n in rendered)


def pod_specs(docs):
    for owner, template in kube_checks.pod_templates(docs):
        yield owner, template["spec"]


def check_container(owner, spec, container, configmaps, secrets):
    where = f"{owner}: container {container.get('name')}"
    if not container.get("image"):
        fail(f"{where}: no image")
    resources = container.get("resources", {})
    if "memory" not in resources.get("limits", {}) or "cpu" not in resources.get("requests", {}):
        fail(f"{where}: needs resources.requests.cpu and resources.limits.memory")
    ports = {p.get("name") for p in container.get("ports", [])} | {p.get("containerPort") for p in container.get("ports", [])}
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        handler = container.get(probe, {})
        port = (handler.get("httpGet") or handler.get("tcpSocket") or {}).get("port")
        if port is not None and port not in ports:
            fail(f"{where}: {probe} uses port {port}, which the container does not declare")
    for source in container.get("envFrom", []):
        ref = source.get("configMapRef", {}).get("name")
        if ref and not base_name(ref, configmaps):
            fail(f"{where}: envFrom ConfigMap {ref} is not rendered")
    volumes = {v.get("name") for v in spec.get("volumes", [])}
    for mount in container.get("volumeMounts", []):
        if mount.get("name") not in volumes:
            fail(f"{where}: volumeMount {mount.get('name')} has no volume")
    for env in container.get("env", []):
        ref = env.get("valueFrom", {}).get("secretKeyRef")
        if ref and ref.get("optional") and ref.get("name") not in secrets:
            continue  # created out of band when wanted; the pod starts without it
        if ref and ref.get("name") not in secrets:
            fail(f"{where}: env {env['name']} refers to Secret {ref.get('name')}, which is not rendered")
        elif ref and ref.get("key") not in secrets[ref["name"]]:
            fail(f"{where}: Secret {ref['name']} has no key {ref.get('key')}")


def env_value(container, docs, key):
    for env in container.get("env", []):
        if env.get("name") == key and "value" in env:
            return env["value"]
    for source in container.get("envFrom", []):
        ref = source.get("configMapRef", {}).get("name")
        for doc in docs:
            if doc.get("kind") == "ConfigMap" and base_name(ref, [doc["metadata"]["name"]]):
                if key in doc.get("data", {}):
                    return doc["data"][key]
    return None


def check_server_drain(owner, spec, container, docs):
    """The kubelet's SIGKILL must come after preStop plus the server's own drain deadline."""
    deadline = seconds(env_value(container, docs, "SYNCML_SHUTDOWN_DEADLINE") or "20s")
    pre_stop = container.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
    pre_stop_seconds = seconds(pre_stop[-1]) if pre_stop[:1] == ["sleep"] else 0
    grace = spec.get("terminationGracePeriodSeconds", 30)
    if grace < deadline + (pre_stop_seconds or 0) + 1:
        fail(f"{owner}: terminationGracePeriodSeconds {grace} < preStop {pre_stop_seconds}s + drain deadline "
             f"{deadline}s + 1s")
    probes = ("startupProbe", "readinessProbe", "livenessProbe")
    paths = {p: container.get(p, {}).get("httpGet", {}).get("path") for p in probes}
    if paths != {"startupProbe": "/healthz", "readinessProbe": "/readyz", "livenessProbe": "/healthz"}:
        fail(f"{owner}: startup must probe /healthz, readiness /readyz and liveness /healthz, got {paths}")


def secret_keys(doc):
    return set(doc.get("data") or {}) | set(doc.get("stringData") or {})


def example_secrets(directory=EXAMPLES):
    """Name -> keys of the Secrets in the examples directory (created out of band, never rendered)."""
    found = {}
    for entry in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
        if entry.endswith((".yaml", ".yml")):
            with open(os.path.join(directory, entry), encoding="utf-8") as f:
                for doc in yaml.safe_load_all(f):
                    if doc and doc.get("kind") == "Secret":
                        found[doc["metadata"]["name"]] = secret_keys(doc)
    return found


def is_migration_job(doc):
    return doc.get("kind") == "Job" and any(
        "syncml-server" in str(c.get("image")) and (c.get("args") or c.get("command") or [])[-1:] == ["migrate"]
        for c in doc["spec"]["template"]["spec"].get("containers", []))


def check_kubernetes(docs, external_secrets=None):
    external_secrets = example_secrets() if external_secrets is None else external_secrets
    for doc in docs:
        if not doc.get("apiVersion") or not doc.get("kind") or not doc.get("metadata", {}).get("name"):
            fail(f"document without apiVersion/kind/metadata.name: {str(doc)[:80]}")
    configmaps = [d["metadata"]["name"] for d in docs if d.get("kind") == "ConfigMap"]
    rendered_secrets = {d["metadata"]["name"]: secret_keys(d) for d in docs if d.get("kind") == "Secret"}
    for name in sorted(rendered_secrets.keys() & external_secrets.keys()):
        fail(f"Secret {name} is rendered: `kubectl apply -k` would overwrite the one created out of band "
             "(see deploy/kubernetes/examples/)")
    secrets = {**external_secrets, **rendered_secrets}
    deployments = {d["metadata"]["name"]: d for d in docs if d.get("kind") == "Deployment"}
    for owner_doc, spec in pod_specs(docs):
        owner = name_of(owner_doc)
        for container in spec.get("containers", []):
            # Secrets created out of band (mounted as volumes) are not rendered; env references must be.
            check_container(owner, spec, container, configmaps, secrets)
            if owner_doc["kind"] == "Deployment" and "syncml-server" in str(container.get("image")):
                check_server_drain(owner, spec, container, docs)
            if "syncml-server" in str(container.get("image")) and \
                    env_value(container, docs, "SYNCML_REQUIRE_DATABASE_URL") != "true":
                fail(f"{owner}: container {container.get('name')} needs SYNCML_REQUIRE_DATABASE_URL=true: the "
                     "database is external, and a missing URL must not start an empty embedded one")
        if owner_doc["kind"] == "Deployment":
            labels = owner_doc["spec"]["template"]["metadata"].get("labels", {})
            if not selects(owner_doc["spec"]["selector"].get("matchLabels"), labels):
                fail(f"{owner}: selector does not match the pod template labels")
        elif spec.get("restartPolicy") not in ("OnFailure", "Never"):
            fail(f"{owner}: a Job needs restartPolicy OnFailure or Never")
        for container in spec.get("containers", []) if owner_doc["kind"] == "Deployment" else []:
            if not container.get("readinessProbe") or not container.get("livenessProbe"):
                fail(f"{owner}: container {container.get('name')} needs a readiness and a liveness probe")
    pod_labels = [d["spec"]["template"]["metadata"].get("labels", {}) for d in deployments.values()]
    servers = [name for name, d in deployments.items()
               if any("syncml-server" in str(c.get("image")) for c in d["spec"]["template"]["spec"]["containers"])]
    if servers and not any(is_migration_job(d) for d in docs):
        fail(f"{', '.join(servers)}: no Job runs `syncml-server migrate` beside the server")
    for doc in docs:
        kind, spec = doc.get("kind"), doc.get("spec", {})
        if kind == "Service":
            targets = [d for d in deployments.values()
                       if selects(spec.get("selector"), d["spec"]["template"]["metadata"].get("labels", {}))]
            if not targets:
                fail(f"{name_of(doc)}: selector matches no Deployment's pods")
            names = {p.get("name") for d in targets for c in d["spec"]["template"]["spec"]["containers"]
                     for p in c.get("ports", [])}
            for port in spec.get("ports", []):
                if isinstance(port.get("targetPort"), str) and port["targetPort"] not in names:
                    fail(f"{name_of(doc)}: targetPort {port['targetPort']} is no container port name")
        elif kind == "PodDisruptionBudget":
            if not any(selects(spec.get("selector", {}).get("matchLabels"), labels) for labels in pod_labels):
                fail(f"{name_of(doc)}: selector matches no Deployment's pods")
        elif kind == "HorizontalPodAutoscaler":
            target = spec.get("scaleTargetRef", {}).get("name")
            if target not in deployments:
                fail(f"{name_of(doc)}: scaleTargetRef {target} is not rendered")
            elif "replicas" in deployments[target]["spec"]:
                fail(f"{target}: spec.replicas is set although {name_of(doc)} scales it (every apply would reset "
                     "the count)")
            elif spec.get("minReplicas", 1) > spec.get("maxReplicas", 0):
                fail(f"{name_of(doc)}: minReplicas > maxReplicas")
    for message in kube_checks.all_checks(docs):
        fail(message)


def apply_images(docs, images):
    """kustomize's images transformer, for the simple form we use (name, newName, newTag)."""
    for image in images:
        for _, template in kube_checks.pod_templates(docs):
            for container in template.get("spec", {}).get("containers", []):
                if str(container.get("image", "")).split(":")[0] in (image.get("name"), image.get("newName")):
                    name = image.get("newName") or container["image"].split(":")[0]
                    container["image"] = f"{name}:{image['newTag']}" if image.get("newTag") else name


def kustomization_images(directory):
    with open(os.path.join(directory, "kustomization.yaml"), encoding="utf-8") as f:
        return yaml.safe_load(f).get("images", [])


def load_kustomization(directory, seen=None):
    """Resources of a kustomization, recursively; generators become minimal ConfigMaps/Secrets."""
    seen = seen if seen is not None else set()
    directory = os.path.realpath(directory)
    if directory in seen:
        fail(f"kustomization cycle at {directory}")
        return []
    seen.add(directory)
    path = os.path.join(directory, "kustomization.yaml")
    with open(path, encoding="utf-8") as f:
        kustomization = yaml.safe_load(f)
    docs = []
    for resource in kustomization.get("resources", []) + kustomization.get("components", []):
        full = os.path.join(directory, resource)
        if os.path.isdir(full):
            docs += load_kustomization(full, seen)
        elif os.path.isfile(full):
            with open(full, encoding="utf-8") as f:
                docs += [d for d in yaml.safe_load_all(f) if d]
        else:
            fail(f"{path}: resource {resource} does not exist")
    for patch in kustomization.get("patches", []) + kustomization.get("patchesStrategicMerge", []):
        patch_path = patch.get("path") if isinstance(patch, dict) else patch
        if patch_path and not os.path.isfile(os.path.join(directory, patch_path)):
            fail(f"{path}: patch {patch_path} does not exist")
    apply_images(docs, kustomization.get("images", []))
    for generator in kustomization.get("configMapGenerator", []):
        data = dict(item.split("=", 1) for item in generator.get("literals", []))
        for item in generator.get("files", []):
            if not os.path.isfile(os.path.join(directory, item.split("=")[-1])):
                fail(f"{path}: generator file {item} does not exist")
        existing = [d for d in docs if d.get("kind") == "ConfigMap" and d["metadata"]["name"] == generator["name"]]
        if existing:
            existing[0].setdefault("data", {}).update(data)
        else:
            docs.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": generator["name"]},
                         "data": data})
    return docs


def merge_generated(docs):
    """Unrendered documents with a generated ConfigMap merged into the one of the same name loaded before it (a
    component's `behavior: merge`)."""
    merged, seen = [], {}
    for doc in docs:
        key = (doc.get("kind"), doc.get("metadata", {}).get("name"))
        if doc.get("kind") == "ConfigMap" and key in seen:
            seen[key].setdefault("data", {}).update(doc.get("data") or {})
            continue
        seen[key] = doc
        merged.append(doc)
    return merged


def check_image_version(root):
    """The image tag of the base and of every component that brings its own pods is the project's version: a release
    changes them all, and `latest` never comes back."""
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(\s*\w+\s+VERSION\s+([0-9][0-9A-Za-z.+-]*)", f.read())
    if not match:
        fail("CMakeLists.txt: no project(NAME VERSION x.y.z)")
        return
    kubernetes = os.path.join(root, "deploy", "kubernetes")
    directories = [os.path.join(kubernetes, "base")] + sorted(
        os.path.join(kubernetes, "components", d) for d in os.listdir(os.path.join(kubernetes, "components")))
    for directory in directories:
        path = os.path.join(directory, "kustomization.yaml")
        docs = load_kustomization(directory)
        ours = [c for _, t in kube_checks.pod_templates(docs) for c in t["spec"].get("containers", [])
                if kube_checks.is_ours(c)]
        if not ours:
            continue
        tags = [i.get("newTag") for i in kustomization_images(directory) if i.get("name") == kube_checks.SERVER_IMAGE]
        if tags != [match.group(1)]:
            fail(f"{path}: the syncml-server image's newTag is {tags}, expected the project version {match.group(1)}")


def loopback_published(port):
    """A published port ("HOST:PUBLISHED:TARGET") bound to 127.0.0.1, or to a variable that defaults to it."""
    text = str(port.get("host_ip", "") + ":" if isinstance(port, dict) else port)
    return text.startswith("127.0.0.1:") or re.match(r"\$\{\w+:-127\.0\.0\.1\}:", text) is not None


def check_compose(root):
    docker = os.path.join(root, "docker")
    with open(os.path.join(docker, "compose.yaml"), encoding="utf-8") as f:
        compose = yaml.safe_load(f)
    services = compose.get("services", {})
    for name, service in services.items():
        if not service.get("image") and not service.get("build"):
            fail(f"compose: service {name} has neither image nor build")
        for dependency in service.get("depends_on", []):
            if dependency not in services:
                fail(f"compose: service {name} depends on unknown service {dependency}")
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith(".") and not os.path.exists(os.path.join(docker, source)):
                fail(f"compose: service {name} mounts {source}, which does not exist")
        build = service.get("build")
        if build and not os.path.isfile(os.path.join(docker, build["context"], build["dockerfile"])):
            fail(f"compose: service {name} builds from a missing Dockerfile")
        if build and build.get("target") and build["target"] not in DOCKER_TARGETS:
            fail(f"compose: service {name} builds target {build['target']}, which docker/Dockerfile does not define")
        for port in service.get("ports", []):
            if not loopback_published(port):
                fail(f"compose: service {name} publishes {port} on every interface; bind it to 127.0.0.1 (or "
                     "${VAR:-127.0.0.1} for a port an operator may open)")
        for key, value in (service.get("environment") or {}).items():
            if re.search(r"PASSWORD$", key) and name == "grafana" and not re.fullmatch(r"\$\{\w+:\?[^}]+\}", str(value)):
                fail(f"compose: {name} {key} must come from the environment with no default (${{VAR:?message}})")
        # The server exports its own process metrics: nothing in the trial setup needs host privileges.
        if service.get("privileged") or service.get("devices") or service.get("cap_add"):
            fail(f"compose: service {name} asks for privileges (privileged, devices or cap_add)")
    servers = sorted(n for n, s in services.items() if s.get("image", "").startswith("syncml-server")
                     and "serve" in (s.get("command") or ["serve"]))
    if len(servers) < 2:
        fail(f"compose: expected at least two server replicas, found {servers}")
    with open(os.path.join(docker, "haproxy.cfg"), encoding="utf-8") as f:
        haproxy = f.read()
    balanced = sorted(re.findall(r"^\s*server\s+\S+\s+([\w-]+):8080", haproxy, re.M))
    if balanced != servers:
        fail(f"compose: haproxy balances {balanced}, the replicas are {servers}")
    if re.search(r"^\s*(cookie|stick|hash-type|balance\s+source)", haproxy, re.M):
        fail("compose: haproxy must not be sticky")
    with open(os.path.join(docker, "prometheus.yml"), encoding="utf-8") as f:
        prometheus = yaml.safe_load(f)
    targets = sorted(t.split(":")[0] for job in prometheus.get("scrape_configs", [])
                     for sc in job.get("static_configs", []) for t in sc.get("targets", [])
                     if t.split(":")[0] in services and t.split(":")[0] in servers)
    if targets != servers:
        fail(f"compose: Prometheus scrapes {targets}, the replicas are {servers}")
    for name, service in services.items():
        if str(service.get("image", "")).startswith("syncml-server") and \
                str(service.get("environment", {}).get("SYNCML_REQUIRE_DATABASE_URL")).lower() != "true":
            fail(f"compose: {name} needs SYNCML_REQUIRE_DATABASE_URL: \"true\" (the database is the postgres service)")
    for name in servers:
        service = services[name]
        deadline = seconds(service.get("environment", {}).get("SYNCML_SHUTDOWN_DEADLINE", "20s"))
        if seconds(service.get("stop_grace_period", "10s")) <= deadline:
            fail(f"compose: {name} stop_grace_period must exceed SYNCML_SHUTDOWN_DEADLINE")


def check_dashboard(path):
    with open(path, encoding="utf-8") as f:
        board = json.load(f)
    if not board.get("uid") or not board.get("title"):
        fail(f"{path}: needs uid and title")
    ids = []
    for panel in board.get("panels", []):
        ids.append(panel.get("id"))
        if panel.get("type") == "row":
            continue
        if not panel.get("targets"):
            fail(f"{path}: panel '{panel.get('title')}' has no query")
        for target in panel.get("targets", []):
            if not target.get("expr", "").strip():
                fail(f"{path}: panel '{panel.get('title')}' has an empty query")
        if "gridPos" not in panel:
            fail(f"{path}: panel '{panel.get('title')}' has no gridPos")
    if len(ids) != len(set(ids)) or None in ids:
        fail(f"{path}: panel ids must be present and unique")


def dockerfile_stages(lines):
    """Stage name -> (base image or stage, instructions); in file order."""
    stages = {}
    current = None
    for line in lines:
        match = re.match(r"FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$", line, re.I)
        if match:
            current = match.group(2) or f"stage{len(stages)}"
            stages[current] = (match.group(1), [])
        elif current:
            stages[current][1].append(line)
    return stages


def stage_chain(stages, name):
    """Instructions of a stage and the stages it is built FROM, oldest first, and the external base image."""
    instructions = []
    while name in stages:
        base, own = stages[name]
        instructions = own + instructions
        name = base
    return instructions, name


# Each image the Dockerfile builds: its target, and whether it carries the embedded PostgreSQL.
DOCKER_TARGETS = {"runtime": True, "runtime-external": False}


def stage_env(lines, key):
    """The value an ENV instruction of the stage chain gives key last, or None."""
    value = None
    for line in lines:
        if line.upper().startswith("ENV "):
            for match in re.finditer(rf"(?:^ENV |\s){key}=(\S+)", line, re.I):
                value = match.group(1).strip('"')
    return value


def check_image_stage(path, stages, target, embedded):
    lines, base = stage_chain(stages, target)
    if "bookworm-slim" not in base:
        fail(f"{path}: stage {target} must be built on debian bookworm-slim, not {base}")
    for instruction in ("USER", "HEALTHCHECK", "VOLUME", "EXPOSE", "ENTRYPOINT"):
        if not any(line.upper().startswith(instruction + " ") for line in lines):
            fail(f"{path}: stage {target} has no {instruction}")
    users = [line.split()[1] for line in lines if line.upper().startswith("USER ")]
    if users and users[-1].split(":")[0] in ("root", "0"):
        fail(f"{path}: stage {target} must not run as root")
    text = "\n".join(lines)
    for tool in ("syncml-server", "syncml-msg", "syncml-item"):
        if not re.search(rf"\b{tool}\b", text):
            fail(f"{path}: stage {target} does not install or smoke-test {tool}")
    if not re.search(r"org\.opencontainers\.image\.version=\"?\$\{?\w+", text):
        fail(f"{path}: stage {target} needs LABEL org.opencontainers.image.version from a build argument")
    installs = " ".join(line for line in lines if "apt-get install" in line)
    # The postgresql-15 package depends on libllvm14 (its JIT provider, ~100 MB): the PostgreSQL files are copied
    # from the build stage without llvmjit.so instead.
    for package in [t for t in installs.split() if re.fullmatch(r"postgresql(-\d+)?(-jit\S*)?|(lib)?llvm\S*", t)]:
        fail(f"{path}: stage {target} installs {package}; copy the PostgreSQL tree without the JIT instead")
    has_postgres = "/pg-server" in text or "postgres --version" in text
    if embedded and not has_postgres:
        fail(f"{path}: stage {target} lacks the embedded PostgreSQL")
    if not embedded and has_postgres:
        fail(f"{path}: stage {target} must not carry the embedded PostgreSQL")
    require = stage_env(lines, "SYNCML_REQUIRE_DATABASE_URL")
    if not embedded and require != "true":
        fail(f"{path}: stage {target} has no embedded PostgreSQL: it needs ENV SYNCML_REQUIRE_DATABASE_URL=true")
    if embedded and require not in (None, "false"):
        fail(f"{path}: stage {target} carries the embedded PostgreSQL: SYNCML_REQUIRE_DATABASE_URL must not be true")


def check_dockerfile(root):
    path = os.path.join(root, "docker", "Dockerfile")
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"\\\n", " ", f.read())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    # Build arguments with defaults, substituted so the base images can be checked.
    for name, value in re.findall(r"^ARG (\w+)=(\S+)$", "\n".join(lines), re.M):
        if name.startswith("SYNCML_"):
            continue  # label values, kept as references for the label check
        lines = [line.replace("${" + name + "}", value) for line in lines]
    stages = dockerfile_stages(lines)
    if len(stages) < 2 or list(stages)[-1] != "runtime":
        fail(f"{path}: needs a build stage and a final 'runtime' stage (the default target)")
    for target, embedded in DOCKER_TARGETS.items():
        if target not in stages:
            fail(f"{path}: no stage {target}")
        else:
            check_image_stage(path, stages, target, embedded)
    for line in lines:
        if "apt-get install" in line and "--no-install-recommends" not in line:
            fail(f"{path}: apt-get install without --no-install-recommends: {line[:60]}")
        if "apt-get install" in line and "/var/lib/apt/lists" not in line:
            fail(f"{path}: apt-get install without removing /var/lib/apt/lists in the same layer")
        if line.upper().startswith("FROM ") and re.search(r":latest\b", line):
            fail(f"{path}: pin base images, not :latest")
        if line.upper().startswith("COPY ") and "--from=" not in line:
            for source in line.split()[1:-1]:
                if source != "." and not os.path.exists(os.path.join(root, source)):
                    fail(f"{path}: COPY source {source} does not exist")
    if any(line.upper().startswith("ADD ") for line in lines):
        fail(f"{path}: use COPY, not ADD")


RUNBOOK_BASE = '{{ or $externalLabels.syncml_runbook_base "deploy/README.md" }}'


def check_alerts(rules, readme_text, rules_path="rules", readme_path="README"):
    """rules: the parsed rule file; readme_text: the runbook document (sections '### AlertName')."""
    sections = set(re.findall(r"^### (\w+)\s*$", readme_text, re.M))
    alerts = set()
    for group in rules.get("groups", []):
        for rule in group.get("rules", []):
            name = rule.get("alert")
            if not name:
                continue
            alerts.add(name)
            if rule.get("labels", {}).get("severity") not in ("critical", "warning", "info"):
                fail(f"{rules_path}: {name} needs severity critical, warning or info")
            expected = f"{RUNBOOK_BASE}#{name.lower()}"
            if rule.get("annotations", {}).get("runbook_url") != expected:
                fail(f"{rules_path}: {name} runbook_url must be '{expected}'")
            if name not in sections:
                fail(f"{readme_path}: no runbook section '### {name}'")
    for name in sorted(sections):
        if name.startswith("Syncml") and name not in alerts:
            fail(f"{readme_path}: runbook section '### {name}' for an alert that does not exist")


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    command, args = argv[1], argv[2:]
    components = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--component"]
    paths = [a for i, a in enumerate(args) if a != "--component" and (i == 0 or args[i - 1] != "--component")]
    if command == "kubernetes":
        for path in paths:
            with open(path, encoding="utf-8") as f:
                docs = [d for d in yaml.safe_load_all(f) if d]
            check_kubernetes(docs)
            for message in kube_checks.expected_kinds(docs, components):
                fail(message)
    elif command == "kustomize":
        docs = load_kustomization(paths[0])
        for component in components:
            docs += load_kustomization(component)
        apply_images(docs, kustomization_images(paths[0]))  # as kustomize applies them to the components' too
        check_kubernetes(merge_generated(docs))
    elif command == "image-version":
        check_image_version(args[0])
    elif command == "compose":
        check_compose(args[0])
    elif command == "dockerfile":
        check_dockerfile(args[0])
    elif command == "dashboard":
        for path in args:
            check_dashboard(path)
    elif command == "alerts" and len(args) == 2:
        with open(args[0], encoding="utf-8") as rules, open(args[1], encoding="utf-8") as readme:
            check_alerts(yaml.safe_load(rules), readme.read(), args[0], args[1])
    else:
        print(__doc__)
        return 2
    for message in errors:
        print("ERROR", message)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
