#!/usr/bin/env python3
"""Unit tests of the deployment check tools (run by tests/checks/deploy.sh)."""

import copy
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_deploy  # noqa: E402
import kube_checks  # noqa: E402
import make_prometheusrule  # noqa: E402
import metric_names  # noqa: E402

import yaml  # noqa: E402


class metric_names_in_promql(unittest.TestCase):
    def test_ignores_functions_grouping_labels_and_variables(self):
        expr = ('histogram_quantile(0.95, sum by (le, route) (rate(a_seconds_bucket{route="sync", job=~"$job"}'
                '[$__rate_interval])))')
        self.assertEqual(metric_names.names_in(expr), {"a_seconds_bucket"})

    def test_finds_both_sides_of_binary_operations(self):
        expr = 'sum(rate(a_total{s=~"5.."}[5m])) by (job) / on (job) group_left sum by (job) (rate(b_total[5m])) > 1e3'
        self.assertEqual(metric_names.names_in(expr), {"a_total", "b_total"})

    def test_offset_durations_and_subqueries_are_not_names(self):
        self.assertEqual(metric_names.names_in("max_over_time(a[1h:5m]) and b offset 1h unless c"), {"a", "b", "c"})

    def test_strings_are_not_names(self):
        self.assertEqual(metric_names.names_in('label_replace(x, "dst", "$1", "src", "(other_name)")'), {"x"})

    def test_label_values_takes_only_a_metric_argument(self):
        self.assertEqual(metric_names.names_in('label_values(m_info{job=~"$job"}, instance)'), {"m_info"})
        self.assertEqual(metric_names.names_in("label_values(instance)"), set())


class metric_presence_in_a_scrape(unittest.TestCase):
    scrape = "\n".join([
        "# TYPE h_seconds histogram",
        'h_seconds_bucket{le="1"} 1',
        "h_seconds_count 1",
        "# TYPE quiet_total counter",
        "# TYPE s_seconds summary",
        "c_total 3",
    ])

    def test_histogram_series_and_declared_families_are_present(self):
        samples, families = metric_names.scraped_names(self.scrape)
        for name in ("h_seconds_bucket", "h_seconds_sum", "h_seconds_count", "quiet_total", "c_total", "s_seconds_sum"):
            self.assertTrue(metric_names.present(name, samples, families), name)

    def test_renamed_or_mistyped_names_are_missing(self):
        samples, families = metric_names.scraped_names(self.scrape)
        for name in ("h_second_bucket", "c", "quiet_total_bucket", "s_seconds_bucket"):
            self.assertFalse(metric_names.present(name, samples, families), name)


class fresh_instance_scrape(unittest.TestCase):
    scrape = "\n".join([
        "# TYPE a_total counter",
        'a_total{result="ok"} 0',
        "# TYPE b_total counter",
        "# TYPE g gauge",
        'c_total{code="200"} 3',
    ])

    def test_a_counter_without_series_or_a_series_not_at_zero_is_reported(self):
        problems = metric_names.fresh_problems(self.scrape, ['a_total{result="ok"}', 'c_total{code="200"}',
                                                             'a_total{result="bad"}'])
        self.assertEqual(problems, ["counter b_total has no series", 'c_total{code="200"} is 3, expected 0',
                                    'a_total{result="bad"} is missing'])

    def test_a_fresh_scrape_with_every_series_at_zero_passes(self):
        self.assertEqual(metric_names.fresh_problems("# TYPE a_total counter\na_total 0\n# TYPE g gauge\n",
                                                     ["a_total"]), [])


SECURE_POD = {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}}
SECURE_CONTAINER = {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True,
                    "capabilities": {"drop": ["ALL"]}}
RESOURCES = {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"memory": "1Gi"}}


def server_manifests():
    deployment = {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "s"},
        "spec": {"selector": {"matchLabels": {"app": "s"}}, "template": {
            "metadata": {"labels": {"app": "s"}},
            "spec": {"terminationGracePeriodSeconds": 30, "automountServiceAccountToken": False,
                     "securityContext": copy.deepcopy(SECURE_POD), "containers": [{
                         "name": "s", "image": "syncml-server:1",
                         "ports": [{"name": "syncml", "containerPort": 8080},
                                   {"name": "metrics", "containerPort": 9090}],
                         "env": [{"name": "SYNCML_SHUTDOWN_DEADLINE", "value": "20s"},
                                 {"name": "SYNCML_REQUIRE_DATABASE_URL", "value": "true"}],
                         "resources": copy.deepcopy(RESOURCES),
                         "securityContext": copy.deepcopy(SECURE_CONTAINER),
                         "startupProbe": {"httpGet": {"path": "/healthz", "port": "metrics"}},
                         "readinessProbe": {"httpGet": {"path": "/readyz", "port": "metrics"}},
                         "livenessProbe": {"httpGet": {"path": "/healthz", "port": "metrics"}},
                         "lifecycle": {"preStop": {"exec": {"command": ["sleep", "5"]}}},
                     }]}}},
    }
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s", "labels": {"app": "s"}},
               "spec": {"selector": {"app": "s"}, "ports": [{"name": "syncml", "port": 80, "targetPort": "syncml"},
                                                            {"name": "metrics", "port": 9090,
                                                             "targetPort": "metrics"}]}}
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "migrate"},
           "spec": {"template": {"spec": {
               "restartPolicy": "OnFailure", "automountServiceAccountToken": False,
               "securityContext": copy.deepcopy(SECURE_POD), "containers": [{
                   "name": "migrate", "image": "syncml-server:1", "args": ["migrate"],
                   "env": [{"name": "SYNCML_REQUIRE_DATABASE_URL", "value": "true"}],
                   "securityContext": copy.deepcopy(SECURE_CONTAINER), "resources": copy.deepcopy(RESOURCES)}]}}}}
    hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "s"},
           "spec": {"scaleTargetRef": {"name": "s"}, "minReplicas": 2, "maxReplicas": 4}}
    return [deployment, service, job, hpa]


class kubernetes_consistency(unittest.TestCase):
    def errors_for(self, docs, external_secrets=None):
        check_deploy.errors.clear()
        check_deploy.check_kubernetes(docs, external_secrets or {})
        found = list(check_deploy.errors)
        check_deploy.errors.clear()
        return found

    def test_consistent_manifests_pass(self):
        self.assertEqual(self.errors_for(server_manifests()), [])

    def test_grace_period_shorter_than_the_drain_fails(self):
        docs = server_manifests()
        docs[0]["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] = 24
        self.assertTrue(any("terminationGracePeriodSeconds" in e for e in self.errors_for(docs)))

    def test_service_selecting_no_pods_fails(self):
        docs = copy.deepcopy(server_manifests())
        docs[1]["spec"]["selector"] = {"app": "other"}
        self.assertTrue(any("matches no Deployment" in e for e in self.errors_for(docs)))

    def test_probe_on_an_undeclared_port_fails(self):
        docs = server_manifests()
        docs[0]["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["httpGet"]["port"] = "http"
        self.assertTrue(any("livenessProbe uses port http" in e for e in self.errors_for(docs)))

    def test_missing_secret_reference_fails(self):
        docs = server_manifests()
        docs[0]["spec"]["template"]["spec"]["containers"][0]["env"].append(
            {"name": "SYNCML_DATABASE_URL", "valueFrom": {"secretKeyRef": {"name": "db", "key": "url"}}})
        self.assertTrue(any("Secret db" in e for e in self.errors_for(docs)))

    def test_optional_secret_reference_may_be_missing(self):
        docs = server_manifests()
        docs[0]["spec"]["template"]["spec"]["containers"][0]["env"].append(
            {"name": "SYNCML_SECRET_KEY",
             "valueFrom": {"secretKeyRef": {"name": "key", "key": "key", "optional": True}}})
        self.assertFalse(any("Secret key" in e for e in self.errors_for(docs)))

    def test_secret_created_out_of_band_satisfies_a_reference(self):
        docs = server_manifests()
        docs[0]["spec"]["template"]["spec"]["containers"][0]["env"].append(
            {"name": "SYNCML_DATABASE_URL", "valueFrom": {"secretKeyRef": {"name": "db", "key": "url"}}})
        self.assertEqual(self.errors_for(docs, {"db": {"url"}}), [])
        docs[0]["spec"]["template"]["spec"]["containers"][0]["env"][-1]["valueFrom"]["secretKeyRef"]["key"] = "uri"
        self.assertTrue(any("no key uri" in e for e in self.errors_for(docs, {"db": {"url"}})))

    def test_rendering_a_secret_created_out_of_band_fails(self):
        docs = server_manifests() + [{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db"},
                                      "stringData": {"url": "postgresql://x"}}]
        self.assertTrue(any("would overwrite" in e for e in self.errors_for(docs, {"db": {"url"}})))

    def test_fixed_replicas_next_to_an_autoscaler_fails(self):
        docs = server_manifests()
        docs[0]["spec"]["replicas"] = 2
        self.assertTrue(any("spec.replicas" in e for e in self.errors_for(docs)))

    def test_server_without_a_migration_job_fails(self):
        docs = [d for d in server_manifests() if d["kind"] != "Job"]
        self.assertTrue(any("syncml-server migrate" in e for e in self.errors_for(docs)))

    def test_a_server_that_may_start_an_embedded_database_fails(self):
        docs = server_manifests()
        docs[2]["spec"]["template"]["spec"]["containers"][0]["env"] = []
        self.assertTrue(any("container migrate needs SYNCML_REQUIRE_DATABASE_URL" in e for e in self.errors_for(docs)))

    def test_the_examples_declare_the_database_secret(self):
        self.assertEqual(check_deploy.example_secrets().get("syncml-database"), {"url"})


def network_policy(port, peers=None):
    rule = {"ports": [{"port": port}]}
    if peers:
        rule["from"] = peers
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": f"p{port}"},
            "spec": {"podSelector": {"matchLabels": {"app": "s"}}, "policyTypes": ["Ingress"], "ingress": [rule]}}


def ingress(port="syncml", annotations=None, tls=True):
    spec = {"rules": [{"host": "h.example", "http": {"paths": [{"path": "/sync", "pathType": "Prefix", "backend": {
        "service": {"name": "s", "port": {"name": port}}}}]}}]}
    if tls:
        spec["tls"] = [{"hosts": ["h.example"], "secretName": "tls"}]
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
            "metadata": {"name": "i", "annotations": {"cert-manager.io/cluster-issuer": "x"}
                         if annotations is None else annotations}, "spec": spec}


def backup_cronjob(policy="Forbid", claim="b"):
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "backup"},
            "spec": {"concurrencyPolicy": policy, "jobTemplate": {"spec": {"template": {"spec": {
                "restartPolicy": "Never", "automountServiceAccountToken": False,
                "securityContext": copy.deepcopy(SECURE_POD),
                "volumes": [{"name": "b", "persistentVolumeClaim": {"claimName": claim}}],
                "containers": [{"name": "b", "image": "syncml-server:1", "command": ["/bin/sh", "-c"],
                                "args": ["syncml-server backup --out /backup/x.dump"],
                                "volumeMounts": [{"name": "b", "mountPath": "/backup"}],
                                "securityContext": copy.deepcopy(SECURE_CONTAINER),
                                "resources": copy.deepcopy(RESOURCES)}]}}}}}}


def claim(name="b"):
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": name}, "spec": {}}


class rendered_objects(unittest.TestCase):
    def errors_for(self, docs):
        return kube_checks.all_checks(docs)

    def test_the_server_manifests_pass(self):
        self.assertEqual(self.errors_for(server_manifests()), [])

    def test_latest_or_missing_image_tags_fail(self):
        for image in ("syncml-server:latest", "registry.example:5000/syncml-server"):
            docs = server_manifests()
            docs[0]["spec"]["template"]["spec"]["containers"][0]["image"] = image
            self.assertTrue(any("image" in e for e in self.errors_for(docs)), image)

    def test_old_api_versions_and_unknown_kinds_fail(self):
        docs = server_manifests()
        docs[3]["apiVersion"] = "autoscaling/v2beta2"
        docs.append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}})
        errors = self.errors_for(docs)
        self.assertTrue(any("expected autoscaling/v2" in e for e in errors), errors)
        self.assertTrue(any("kind Pod" in e for e in errors), errors)

    def test_insecure_pods_and_containers_fail(self):
        docs = server_manifests()
        pod = docs[0]["spec"]["template"]["spec"]
        del pod["securityContext"]["seccompProfile"]
        pod["containers"][0]["securityContext"]["readOnlyRootFilesystem"] = False
        del pod["containers"][0]["resources"]["requests"]["memory"]
        del docs[2]["spec"]["template"]["spec"]["automountServiceAccountToken"]
        errors = self.errors_for(docs)
        for text in ("seccompProfile", "readOnlyRootFilesystem", "requests.memory", "Job/migrate: automount"):
            self.assertTrue(any(text in e for e in errors), (text, errors))

    def test_private_ports_need_listed_peers(self):
        peers = [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}}]
        ok = server_manifests() + [network_policy("syncml"), network_policy("metrics", peers),
                                   network_policy(9443, peers)]
        self.assertEqual(self.errors_for(ok), [])
        errors = self.errors_for(server_manifests() + [network_policy("metrics"), network_policy(9443)])
        self.assertEqual(sum("open to every peer" in e for e in errors), 2, errors)

    def test_network_policy_with_an_unknown_port_or_no_pods_fails(self):
        policy = network_policy("admin-api", [{"podSelector": {}}])
        self.assertTrue(any("no container port" in e for e in self.errors_for(server_manifests() + [policy])))
        policy["spec"]["podSelector"]["matchLabels"] = {"app": "other"}
        self.assertTrue(any("matches no Deployment" in e for e in self.errors_for(server_manifests() + [policy])))

    def test_ingress_needs_cert_manager_tls_and_a_public_port(self):
        self.assertEqual(self.errors_for(server_manifests() + [ingress()]), [])
        errors = self.errors_for(server_manifests() + [ingress(annotations={}, tls=False)])
        self.assertTrue(any("cert-manager" in e for e in errors), errors)
        self.assertTrue(any("no TLS entry" in e for e in errors), errors)
        self.assertTrue(any("private port" in e for e in self.errors_for(server_manifests() + [ingress("metrics")])))
        self.assertTrue(any("does not have" in e for e in self.errors_for(server_manifests() + [ingress("http")])))

    def test_service_monitor_must_scrape_a_port_of_a_selected_service(self):
        monitor = {"apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor", "metadata": {"name": "m"},
                   "spec": {"selector": {"matchLabels": {"app": "s"}}, "endpoints": [{"port": "metrics"}]}}
        self.assertEqual(self.errors_for(server_manifests() + [monitor]), [])
        monitor["spec"]["endpoints"][0]["port"] = "http-metrics"
        self.assertTrue(any("endpoint port" in e for e in self.errors_for(server_manifests() + [monitor])))

    def test_prometheus_rule_must_hold_the_tested_rules(self):
        with open(make_prometheusrule.DEFAULT_OUT, encoding="utf-8") as f:
            rule = yaml.safe_load(f)
        self.assertEqual(self.errors_for(server_manifests() + [rule]), [])
        rule["spec"]["groups"][0]["rules"].pop()
        self.assertTrue(any("groups differ" in e for e in self.errors_for(server_manifests() + [rule])))

    def test_backup_cronjob_writes_to_a_rendered_claim_one_at_a_time(self):
        self.assertEqual(self.errors_for(server_manifests() + [backup_cronjob(), claim()]), [])
        errors = self.errors_for(server_manifests() + [backup_cronjob(policy="Allow", claim="gone"), claim()])
        self.assertTrue(any("concurrencyPolicy" in e for e in errors), errors)
        self.assertTrue(any("gone is not rendered" in e for e in errors), errors)

    def test_a_component_whose_kinds_are_missing_fails(self):
        component = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kubernetes", "components",
                                 "backup")
        errors = kube_checks.expected_kinds(server_manifests(), [component])
        self.assertTrue(any("CronJob is missing" in e for e in errors), errors)
        self.assertEqual(kube_checks.expected_kinds(server_manifests() + [backup_cronjob(), claim()], [component]), [])


class prometheus_rule_generation(unittest.TestCase):
    def test_generated_object_parses_to_the_rule_files_groups(self):
        rules = "---\n# c\ngroups:\n  - name: g\n    rules:\n      - alert: A\n        expr: |\n          up\n\n" \
                "          == 0\n"
        generated = yaml.safe_load(make_prometheusrule.generate(rules))
        self.assertEqual(generated["kind"], "PrometheusRule")
        self.assertTrue(make_prometheusrule.same_groups(rules, generated))
        self.assertEqual(generated["spec"]["groups"][0]["rules"][0]["expr"], "up\n\n== 0\n")

    def test_the_committed_rule_object_is_current(self):
        self.assertEqual(make_prometheusrule.main(["x", "--check"]), 0)


class image_version(unittest.TestCase):
    ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

    def errors_for(self, cmake_version):
        root = tempfile.mkdtemp()
        try:
            shutil.copytree(os.path.join(self.ROOT, "deploy", "kubernetes"), os.path.join(root, "deploy", "kubernetes"))
            with open(os.path.join(root, "CMakeLists.txt"), "w", encoding="utf-8") as f:
                f.write(f"project(syncml_server VERSION {cmake_version} LANGUAGES CXX)\n")
            check_deploy.errors.clear()
            check_deploy.check_image_version(root)
            return list(check_deploy.errors)
        finally:
            check_deploy.errors.clear()
            shutil.rmtree(root)

    def test_the_images_carry_the_project_version(self):
        with open(os.path.join(self.ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
            version = re.search(r"project\(\w+ VERSION ([0-9.]+)", f.read()).group(1)
        self.assertEqual(self.errors_for(version), [])

    def test_another_version_fails_for_the_base_and_the_backup_component(self):
        errors = self.errors_for("99.0.0")
        self.assertTrue(any("base" in e for e in errors), errors)
        self.assertTrue(any("backup" in e for e in errors), errors)


class compose_rules(unittest.TestCase):
    ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

    def errors_for(self, edit=lambda text: text):
        root = tempfile.mkdtemp()
        try:
            shutil.copytree(os.path.join(self.ROOT, "docker"), os.path.join(root, "docker"))
            shutil.copytree(os.path.join(self.ROOT, "deploy"), os.path.join(root, "deploy"))
            path = os.path.join(root, "docker", "compose.yaml")
            with open(path, encoding="utf-8") as f:
                text = edit(f.read())
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            check_deploy.errors.clear()
            check_deploy.check_compose(root)
            return list(check_deploy.errors)
        finally:
            check_deploy.errors.clear()
            shutil.rmtree(root)

    def test_the_compose_file_passes(self):
        self.assertEqual(self.errors_for(), [])

    def test_a_port_published_on_every_interface_fails(self):
        errors = self.errors_for(lambda t: t.replace('"127.0.0.1:3000:3000"', '"3000:3000"'))
        self.assertTrue(any("grafana publishes 3000:3000 on every interface" in e for e in errors), errors)

    def test_a_default_grafana_password_fails(self):
        errors = self.errors_for(lambda t: re.sub(r"\$\{GRAFANA_ADMIN_PASSWORD:\?[^}]*\}", "${GRAFANA_ADMIN_PASSWORD:-admin}", t))
        self.assertTrue(any("GF_SECURITY_ADMIN_PASSWORD must come from the environment" in e for e in errors), errors)


def alert(name, severity="warning", anchor=None):
    return {"alert": name, "expr": "up == 0", "labels": {"severity": severity},
            "annotations": {"runbook_url": f"{check_deploy.RUNBOOK_BASE}#{anchor or name.lower()}"}}


class alert_runbooks(unittest.TestCase):
    readme = "# Deploy\n\n## Runbooks\n\n### SyncmlA\nWhat to do.\n\n### SyncmlB\nWhat else.\n"

    def errors_for(self, rules, readme=None):
        check_deploy.errors.clear()
        check_deploy.check_alerts({"groups": [{"name": "g", "rules": rules}]}, readme or self.readme)
        return list(check_deploy.errors)

    def test_alerts_with_sections_and_anchors_pass(self):
        rules = [alert("SyncmlA"), alert("SyncmlB", "critical"), {"record": "r", "expr": "1"}]
        self.assertEqual(self.errors_for(rules), [])

    def test_alert_without_a_section_fails(self):
        errors = self.errors_for([alert("SyncmlA"), alert("SyncmlB"), alert("SyncmlC")])
        self.assertTrue(any("no runbook section '### SyncmlC'" in e for e in errors), errors)

    def test_section_without_an_alert_fails(self):
        errors = self.errors_for([alert("SyncmlA")])
        self.assertTrue(any("'### SyncmlB' for an alert that does not exist" in e for e in errors), errors)

    def test_wrong_anchor_or_missing_severity_fails(self):
        errors = self.errors_for([alert("SyncmlA", anchor="syncmlb"), alert("SyncmlB", severity=None)])
        self.assertTrue(any("SyncmlA runbook_url" in e for e in errors), errors)
        self.assertTrue(any("SyncmlB needs severity" in e for e in errors), errors)


class dockerfile_rules(unittest.TestCase):
    ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

    def errors_for(self, edit=lambda text: text):
        with open(os.path.join(self.ROOT, "docker", "Dockerfile"), encoding="utf-8") as f:
            text = edit(f.read())
        root = tempfile.mkdtemp()
        try:
            for path in ("cmake/install-deps.sh", "docker/healthcheck.sh", "docker/runtime-packages.sh"):
                os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
                shutil.copy(os.path.join(self.ROOT, path), os.path.join(root, path))
            with open(os.path.join(root, "docker", "Dockerfile"), "w", encoding="utf-8") as f:
                f.write(text)
            check_deploy.errors.clear()
            check_deploy.check_dockerfile(root)
            return list(check_deploy.errors)
        finally:
            check_deploy.errors.clear()
            shutil.rmtree(root)

    def test_the_dockerfile_passes(self):
        self.assertEqual(self.errors_for(), [])

    def test_installing_the_postgresql_package_fails(self):
        errors = self.errors_for(lambda t: t.replace("$(cat /tmp/postgres-packages.txt)", "postgresql-15"))
        self.assertTrue(any("installs postgresql-15" in e for e in errors), errors)

    def test_a_runtime_stage_inherits_user_and_entrypoint(self):
        stages = check_deploy.dockerfile_stages(["FROM debian:bookworm-slim AS a", "USER x", "FROM a AS b", "RUN y"])
        self.assertEqual(check_deploy.stage_chain(stages, "b"), (["USER x", "RUN y"], "debian:bookworm-slim"))

    def test_the_external_variant_without_the_embedded_postgresql_is_required(self):
        errors = self.errors_for(lambda t: t.replace("AS runtime-external", "AS runtime-ext")
                                 .replace("FROM runtime-external", "FROM runtime-ext"))
        self.assertTrue(any("no stage runtime-external" in e for e in errors), errors)

    def test_a_version_label_from_a_build_argument_is_required(self):
        errors = self.errors_for(lambda t: t.replace('version="${SYNCML_VERSION}"', 'version="1.0"'))
        self.assertTrue(any("image.version" in e for e in errors), errors)

    def test_the_external_image_must_refuse_to_start_an_embedded_database(self):
        errors = self.errors_for(
            lambda t: t.replace("SYNCML_REQUIRE_DATABASE_URL=true", "SYNCML_REQUIRE_DATABASE_URL=0"))
        self.assertTrue(any("stage runtime-external has no embedded PostgreSQL" in e for e in errors), errors)


if __name__ == "__main__":
    unittest.main(verbosity=1)
