# How many of a rare process's operations of kind o (awk -v o=OP) the log
# holds exactly once. First file: the rare process's own list, one line per
# operation (nsflood's rare output: OP PID NS_TYPE NS_INUM PATH|CHILD);
# second: the log's candidate records as TSV (op, pid, ns_type, ns_inum,
# result, path, target_pid, via, repeat). Shared by 18-flood-fairness,
# 39-record-fork-flood and 43-record-flood-retention.
NR == FNR { if ($1 == o) w[++n] = $0; next }
{ r[FNR] = $0 }
END {
	for (i = 1; i <= n; i++) {
		split(w[i], f, " ")
		hits = 0
		for (j in r) {
			split(r[j], x, "\t")
			if (x[4] != f[4] || x[3] != f[3])
				continue
			if (o == "clone") {
				if (x[1] == "clone" && x[2] == f[2] && x[7] == f[5]) hits += x[9]
			} else if (x[2] != f[2]) {
				continue
			} else if (o == "setns_fail") {
				if (x[1] == "setns" && x[5] == -22) hits += x[9]
			} else if (o == "pidfd") {
				if (x[1] == "nsfd" && x[8] == "pidfd") hits += x[9]
			} else if (o == "mount" || o == "umount") {
				if (x[1] == o && x[6] == f[5]) hits += x[9]
			} else if (o == "setns") {
				if (x[1] == "setns" && x[5] == 0) hits += x[9]
			} else if (x[1] == o && x[5] == 0) {
				hits += x[9]
			}
		}
		if (hits == 1)
			ok++
	}
	print ok + 0
}
