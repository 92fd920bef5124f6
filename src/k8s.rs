//! `txbench k8s job`: a Kubernetes Indexed Job that runs one `txbench run` per pod as shard
//! K of N, all starting together, each writing its run directory onto a shared volume for
//! `txbench merge`. Only the manifest: nothing else in txbench needs Kubernetes.

use serde_json::json;

/// Where the results volume is mounted in each pod.
pub const RESULTS_MOUNT: &str = "/results";
/// The user (and group) the image runs as (the Dockerfile's USER): the pod runs as it, and
/// the results volume is made writable to its group (fsGroup).
pub const IMAGE_UID: u32 = 10001;
/// The env var the manifest sets from the completion index, for the shard's --out path
/// (txbench itself reads JOB_COMPLETION_INDEX, which the Job controller sets).
pub const INDEX_VAR: &str = "TXBENCH_SHARD_INDEX";

/// What the manifest is made of.
#[derive(Debug, Clone)]
pub struct JobSpec {
    /// The Job's name (also its results directory on the volume).
    pub name: String,
    /// Its namespace, if not the current one.
    pub namespace: Option<String>,
    /// Pods: completions = parallelism = shards.
    pub shards: u32,
    /// The image with `txbench` on its PATH.
    pub image: String,
    /// The `txbench run` arguments (workload and options), without --shard, --start-at, --out.
    pub run_args: Vec<String>,
    /// The target URL without a password, if given on the command line.
    pub url: Option<String>,
    /// A Secret whose key `url` holds the target URL (with its password), as TXBENCH_URL.
    pub url_secret: Option<String>,
    /// The PersistentVolumeClaim the shards write to (ReadWriteMany).
    pub claim: String,
    /// The shared start, RFC 3339.
    pub start_at: String,
    /// CPU request and limit per pod, if given ("4", "3500m").
    pub cpus: Option<String>,
}

impl JobSpec {
    /// The shard directory of pod `index` (from 0) on the volume.
    pub fn shard_dir(&self, index: &str) -> String {
        format!("{RESULTS_MOUNT}/{}/shard-{index}", self.name)
    }

    /// The manifest, as YAML with a comment header saying how to apply, collect and merge.
    pub fn render(&self) -> Result<String, String> {
        let mut args: Vec<String> = vec!["run".into()];
        if let Some(u) = &self.url {
            args.push("--url".into());
            args.push(u.clone());
        }
        args.extend(self.run_args.iter().cloned());
        args.extend([
            "--start-at".to_string(),
            self.start_at.clone(),
            "--out".into(),
            self.shard_dir(&format!("$({INDEX_VAR})")),
        ]);
        let mut env = vec![
            json!({"name": crate::shard::SHARDS_ENV, "value": self.shards.to_string()}),
            json!({"name": INDEX_VAR, "valueFrom": {"fieldRef": {
                "fieldPath": "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}}),
        ];
        if let Some(s) = &self.url_secret {
            env.push(json!({"name": "TXBENCH_URL", "valueFrom": {"secretKeyRef": {"name": s, "key": "url"}}}));
        }
        let labels = json!({"app.kubernetes.io/name": "txbench", "txbench/run": self.name});
        let mut container = json!({
            "name": "txbench",
            "image": self.image,
            "command": ["txbench"],
            "args": args,
            "env": env,
            "volumeMounts": [{"name": "results", "mountPath": RESULTS_MOUNT}],
        });
        if let Some(c) = &self.cpus {
            // A request places the pod; a limit would throttle it (CFS quota stalls of up to
            // 100 ms would land in the measured latencies).
            container["resources"] = json!({"requests": {"cpu": c}});
        }
        let mut metadata = json!({"name": self.name, "labels": labels});
        if let Some(ns) = &self.namespace {
            metadata["namespace"] = json!(ns);
        }
        let job = json!({
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": metadata,
            "spec": {
                "completionMode": "Indexed",
                "completions": self.shards,
                "parallelism": self.shards,
                // A shard that fails cannot rejoin the shared start: no retries (the merge
                // names a missing shard), and one shard's failure (INVALID exits 3, Ctrl-C 130)
                // does not stop the others (Kubernetes 1.29 and later).
                "backoffLimitPerIndex": 0,
                "maxFailedIndexes": self.shards,
                "template": {
                    "metadata": {"labels": labels},
                    "spec": {
                        "restartPolicy": "Never",
                        "securityContext": {"runAsNonRoot": true, "runAsUser": IMAGE_UID,
                            "runAsGroup": IMAGE_UID, "fsGroup": IMAGE_UID},
                        // One client machine per shard where the cluster has them.
                        "affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{
                            "weight": 100,
                            "podAffinityTerm": {
                                "topologyKey": "kubernetes.io/hostname",
                                "labelSelector": {"matchLabels": {"txbench/run": self.name}},
                            },
                        }]}},
                        "containers": [container],
                        "volumes": [{"name": "results", "persistentVolumeClaim": {"claimName": self.claim}}],
                    },
                },
            },
        });
        let yaml = serde_yaml_ng::to_string(&job).map_err(|e| format!("writing YAML: {e}"))?;
        let ns = self
            .namespace
            .as_ref()
            .map_or(String::new(), |n| format!(" -n {n}"));
        Ok(format!(
            "# txbench {version}: {n} shards of `txbench run {cmd}`, starting together at {at}.\n\
             # Apply:   kubectl apply{ns} -f job.yaml   (before {at}: the pods must be running by then)\n\
             # Wait:    kubectl wait{ns} --for=condition=complete job/{name} --timeout=24h\n\
             #          (the Job fails instead when a shard exits non-zero: INVALID 3, interrupted 130)\n\
             # Collect: the shards' run directories are {dirs} on the claim {claim}\n\
             #          (e.g. kubectl cp from a pod that mounts it, or read the volume directly)\n\
             # Merge:   txbench merge {pattern} --out {name}-merged\n\
             {yaml}",
            version = env!("CARGO_PKG_VERSION"),
            n = self.shards,
            cmd = self.run_args.join(" "),
            at = self.start_at,
            name = self.name,
            dirs = self.shard_dir(&format!("{{0..{}}}", self.shards - 1)),
            claim = self.claim,
            pattern = self.shard_dir("*").trim_start_matches('/'),
        ))
    }
}

/// A Kubernetes object name: lower-case letters, digits and '-', starting and ending with
/// a letter or digit, at most 63 characters (it labels the pods too).
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "'{name}' is not a Kubernetes name (lower-case letters, digits and '-', at most 63)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_kubernetes_rules() {
        assert!(check_name("tpcc-1000").is_ok());
        for bad in ["", "TPCC", "-a", "a-", "a_b", &"a".repeat(64)] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
