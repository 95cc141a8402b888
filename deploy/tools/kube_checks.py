"""Checks of rendered Kubernetes objects beyond their references (used by check_deploy.py kubernetes).

Each function takes the rendered documents (dicts) and returns a list of error messages:

  api_versions       every object is a kind we ship, at its current API version (no beta or removed APIs)
  pod_security       non-root pods with the RuntimeDefault seccomp profile; containers without privilege
                     escalation, with a read-only root and no capabilities; no service account token for ours
  image_tags         every image names a tag or digest, never `latest`
  network_policies   each selects pods; named ports exist; the metrics and admin ports admit listed peers only
  ingresses          backends are rendered Services and their ports (never the metrics port), TLS for every host,
                     a cert-manager issuer
  service_monitors   select a rendered Service and scrape a port it has
  prometheus_rules   a PrometheusRule's groups are exactly those of the rule file promtool tests
  backups            a CronJob running `syncml-server backup` writes to a rendered PersistentVolumeClaim and never
                     runs twice at once
  expected_kinds     the kinds a component adds are in the render
"""

import os
import re

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = os.path.join(HERE, "..", "prometheus", "alerts.yaml")

# Kinds we ship, at the API version each must use.
API_VERSIONS = {
    "Namespace": "v1",
    "ServiceAccount": "v1",
    "Service": "v1",
    "ConfigMap": "v1",
    "Secret": "v1",
    "PersistentVolumeClaim": "v1",
    "Deployment": "apps/v1",
    "Job": "batch/v1",
    "CronJob": "batch/v1",
    "PodDisruptionBudget": "policy/v1",
    "HorizontalPodAutoscaler": "autoscaling/v2",
    "NetworkPolicy": "networking.k8s.io/v1",
    "Ingress": "networking.k8s.io/v1",
    "ServiceMonitor": "monitoring.coreos.com/v1",
    "PrometheusRule": "monitoring.coreos.com/v1",
}
# Ports that must never be open to everyone: /metrics and /readyz's reasons, and the admin API (SYNCML_ADMIN_LISTEN).
PRIVATE_PORTS = {"metrics", 9090, "admin", 9443}
SERVER_IMAGE = "syncml-server"


def name_of(doc):
    return f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"


def selects(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def pod_templates(docs):
    """(owner, pod template) of every Deployment, Job and CronJob."""
    for doc in docs:
        kind, spec = doc.get("kind"), doc.get("spec", {})
        if kind in ("Deployment", "Job"):
            yield doc, spec.get("template", {})
        elif kind == "CronJob":
            yield doc, spec.get("jobTemplate", {}).get("spec", {}).get("template", {})


def is_ours(container):
    return SERVER_IMAGE in str(container.get("image"))


def api_versions(docs):
    errors = []
    for doc in docs:
        kind = doc.get("kind")
        if kind not in API_VERSIONS:
            errors.append(f"{name_of(doc)}: kind {kind} is not one we ship (add it to kube_checks.API_VERSIONS)")
        elif doc.get("apiVersion") != API_VERSIONS[kind]:
            errors.append(f"{name_of(doc)}: apiVersion {doc.get('apiVersion')}, expected {API_VERSIONS[kind]}")
    return errors


def pod_security(docs):
    errors = []
    for owner, template in pod_templates(docs):
        spec = template.get("spec", {})
        where = name_of(owner)
        context = spec.get("securityContext", {})
        if context.get("runAsNonRoot") is not True:
            errors.append(f"{where}: pod securityContext.runAsNonRoot must be true")
        if context.get("seccompProfile", {}).get("type") != "RuntimeDefault":
            errors.append(f"{where}: pod securityContext.seccompProfile.type must be RuntimeDefault")
        containers = spec.get("containers", []) + spec.get("initContainers", [])
        if any(is_ours(c) for c in containers) and spec.get("automountServiceAccountToken") is not False:
            errors.append(f"{where}: automountServiceAccountToken must be false (the server never calls the API)")
        for container in containers:
            own = container.get("securityContext", {})
            cname = f"{where}: container {container.get('name')}"
            if own.get("allowPrivilegeEscalation") is not False:
                errors.append(f"{cname}: securityContext.allowPrivilegeEscalation must be false")
            if own.get("readOnlyRootFilesystem") is not True:
                errors.append(f"{cname}: securityContext.readOnlyRootFilesystem must be true")
            if "ALL" not in (own.get("capabilities", {}).get("drop") or []):
                errors.append(f"{cname}: securityContext.capabilities.drop must contain ALL")
            if own.get("privileged") or own.get("capabilities", {}).get("add"):
                errors.append(f"{cname}: privileged or added capabilities")
            resources = container.get("resources", {})
            for field in ("requests.cpu", "requests.memory", "limits.memory"):
                part, key = field.split(".")
                if key not in resources.get(part, {}):
                    errors.append(f"{cname}: needs resources.{field}")
    return errors


def image_tags(docs):
    errors = []
    for owner, template in pod_templates(docs):
        for container in template.get("spec", {}).get("containers", []):
            image = str(container.get("image", ""))
            last = image.rsplit("/", 1)[-1]
            if "@sha256:" in image:
                continue
            if ":" not in last:
                errors.append(f"{name_of(owner)}: image {image} has no tag (it would be `latest`)")
            elif last.endswith(":latest"):
                errors.append(f"{name_of(owner)}: image {image}: use a released version, not latest")
    return errors


def server_pods(docs):
    """(Deployment, pod labels, container port names and numbers) of every Deployment."""
    for doc in docs:
        if doc.get("kind") == "Deployment":
            template = doc["spec"]["template"]
            ports = set()
            for container in template["spec"].get("containers", []):
                for port in container.get("ports", []):
                    ports |= {port.get("name"), port.get("containerPort")}
            yield doc, template.get("metadata", {}).get("labels", {}), ports


def network_policies(docs):
    errors = []
    for doc in docs:
        if doc.get("kind") != "NetworkPolicy":
            continue
        where = name_of(doc)
        spec = doc.get("spec", {})
        selector = spec.get("podSelector", {}).get("matchLabels")
        targets = [(d, ports) for d, labels, ports in server_pods(docs) if selects(selector, labels)]
        if not targets:
            errors.append(f"{where}: podSelector matches no Deployment's pods")
        if "Ingress" not in spec.get("policyTypes", ["Ingress"]):
            continue
        for rule in spec.get("ingress", []):
            for port in rule.get("ports", []):
                value = port.get("port")
                if isinstance(value, str) and targets and not any(value in ports for _, ports in targets):
                    errors.append(f"{where}: port {value} is no container port of the pods it selects")
                if value in PRIVATE_PORTS and not rule.get("from"):
                    errors.append(f"{where}: port {value} is open to every peer; list who may reach it under from:")
    return errors


def ingresses(docs):
    errors = []
    services = {d["metadata"]["name"]: d for d in docs if d.get("kind") == "Service"}
    for doc in docs:
        if doc.get("kind") != "Ingress":
            continue
        where = name_of(doc)
        spec = doc.get("spec", {})
        annotations = doc.get("metadata", {}).get("annotations") or {}
        if not any(k in annotations for k in ("cert-manager.io/cluster-issuer", "cert-manager.io/issuer")):
            errors.append(f"{where}: no cert-manager.io/cluster-issuer or cert-manager.io/issuer annotation")
        tls_hosts = {h for t in spec.get("tls", []) for h in t.get("hosts", []) if t.get("secretName")}
        for rule in spec.get("rules", []):
            host = rule.get("host")
            if not host or host not in tls_hosts:
                errors.append(f"{where}: host {host} has no TLS entry with a secretName (phones need HTTPS)")
            for path in rule.get("http", {}).get("paths", []):
                backend = path.get("backend", {}).get("service", {})
                service = services.get(backend.get("name"))
                if not service:
                    errors.append(f"{where}: path {path.get('path')} goes to Service {backend.get('name')}, which "
                                  "is not rendered")
                    continue
                port = backend.get("port", {})
                wanted = port.get("name", port.get("number"))
                match = [p for p in service["spec"].get("ports", []) if wanted in (p.get("name"), p.get("port"))]
                if not match:
                    errors.append(f"{where}: path {path.get('path')} names port {wanted}, which "
                                  f"{name_of(service)} does not have")
                elif {match[0].get("name"), match[0].get("targetPort")} & PRIVATE_PORTS:
                    errors.append(f"{where}: path {path.get('path')} exposes the private port {wanted}")
    return errors


def service_monitors(docs):
    errors = []
    services = [d for d in docs if d.get("kind") == "Service"]
    for doc in docs:
        if doc.get("kind") != "ServiceMonitor":
            continue
        selector = doc.get("spec", {}).get("selector", {}).get("matchLabels")
        chosen = [s for s in services if selects(selector, s.get("metadata", {}).get("labels", {}))]
        if not chosen:
            errors.append(f"{name_of(doc)}: selector matches no rendered Service's labels")
        ports = {p.get("name") for s in chosen for p in s["spec"].get("ports", [])}
        for endpoint in doc.get("spec", {}).get("endpoints", []):
            if chosen and endpoint.get("port") not in ports:
                errors.append(f"{name_of(doc)}: endpoint port {endpoint.get('port')} is no port of the Service")
    return errors


def prometheus_rules(docs, rules_path=RULES):
    errors = []
    found = [d for d in docs if d.get("kind") == "PrometheusRule"]
    if not found:
        return errors
    with open(rules_path, encoding="utf-8") as f:
        groups = yaml.safe_load(f).get("groups")
    for doc in found:
        if doc.get("spec", {}).get("groups") != groups:
            errors.append(f"{name_of(doc)}: groups differ from {os.path.relpath(rules_path)} (the rules promtool "
                          "tests); run deploy/tools/make_prometheusrule.py")
    return errors


def backups(docs):
    errors = []
    claims = {d["metadata"]["name"] for d in docs if d.get("kind") == "PersistentVolumeClaim"}
    for doc in docs:
        if doc.get("kind") != "CronJob":
            continue
        spec = doc.get("spec", {})
        pod = spec.get("jobTemplate", {}).get("spec", {}).get("template", {}).get("spec", {})
        backup_containers = [c for c in pod.get("containers", []) if is_ours(c) and re.search(
            r"\bsyncml-server backup\b|^backup$", "\n".join(map(str, (c.get("command") or []) + (c.get("args") or []))),
            re.M)]
        if not backup_containers:
            continue
        where = name_of(doc)
        if spec.get("concurrencyPolicy") != "Forbid":
            errors.append(f"{where}: concurrencyPolicy must be Forbid (two dumps at once only load the database)")
        if pod.get("restartPolicy") not in ("OnFailure", "Never"):
            errors.append(f"{where}: restartPolicy must be OnFailure or Never")
        volumes = {v.get("name"): v for v in pod.get("volumes", [])}
        for container in backup_containers:
            text = " ".join(map(str, (container.get("command") or []) + (container.get("args") or [])))
            persistent = [m for m in container.get("volumeMounts", [])
                          if "persistentVolumeClaim" in volumes.get(m.get("name"), {})]
            if not persistent:
                errors.append(f"{where}: container {container.get('name')} mounts no PersistentVolumeClaim")
            for mount in persistent:
                claim = volumes[mount["name"]]["persistentVolumeClaim"].get("claimName")
                if claim not in claims:
                    errors.append(f"{where}: PersistentVolumeClaim {claim} is not rendered")
            if persistent and not any(m.get("mountPath", "//") in text for m in persistent):
                errors.append(f"{where}: the backup is not written below the claim's mount path")
    return errors


def expected_kinds(docs, component_dirs):
    """The kinds of the resources each component directory lists are in the render."""
    errors = []
    rendered = {d.get("kind") for d in docs}
    for directory in component_dirs:
        with open(os.path.join(directory, "kustomization.yaml"), encoding="utf-8") as f:
            kustomization = yaml.safe_load(f)
        for resource in kustomization.get("resources", []):
            with open(os.path.join(directory, resource), encoding="utf-8") as f:
                for doc in yaml.safe_load_all(f):
                    if doc and doc.get("kind") not in rendered:
                        errors.append(f"{directory}: its {doc.get('kind')} is missing from the render")
    return errors


def all_checks(docs):
    errors = []
    for check in (api_versions, pod_security, image_tags, network_policies, ingresses, service_monitors,
                  prometheus_rules, backups):
        errors += check(docs)
    return errors
