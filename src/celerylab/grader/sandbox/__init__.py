"""The Linux sandbox a grading job runs in: namespaces and a job-only user, a memory cgroup, an import guard."""
