// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * Bounded work on hostile input (issue 40): epoch keys asked for in any
 * order -- as forged anchor lines and segment headers naming far epochs
 * ask -- cost at most a stride of evolutions each past the one walk up to
 * the highest epoch, and give the same keys as plain evolution.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>
#include <sodium.h>

#include "seal.h"

static void ring(struct audit_keyring *kr, int64_t t0)
{
	uint8_t seed[AUDIT_KEY_LEN] = {4, 0};

	cr_assert_geq(sodium_init(), 0);
	audit_keyring_from_seed(kr, seed);
	audit_keyring_schedule(kr, t0, 1);
}

Test(audit_keyring, far_epochs_in_any_order_cost_a_stride_each)
{
	const uint64_t span = 200000, asks = 300;
	struct audit_keyring kr, ref;
	uint8_t k[AUDIT_KEY_LEN], want[AUDIT_KEY_LEN];
	int64_t t0 = (int64_t)time(NULL) - (int64_t)span;
	uint64_t i, e;

	ring(&kr, t0);
	srand(40);
	for (i = 0; i < asks; i++) {
		e = (uint64_t)rand() % span;
		cr_assert_eq(audit_keyring_get(&kr, e, k), 0, "epoch %llu", (unsigned long long)e);
	}
	cr_assert_leq(kr.evolved, span + asks * AUDIT_KR_STRIDE, "%llu evolutions for %llu asks",
		      (unsigned long long)kr.evolved, (unsigned long long)asks);
	/* the same keys as plain evolution from K(0) */
	ring(&ref, t0);
	cr_assert_eq(audit_keyring_get(&ref, 0, want), 0);
	for (e = 0; e < 3000; e++) {
		if (e % 37 == 0) {
			cr_assert_eq(audit_keyring_get(&kr, e, k), 0);
			cr_assert_eq(memcmp(k, want, sizeof(k)), 0, "epoch %llu",
				     (unsigned long long)e);
		}
		audit_seal_evolve_key(want);
	}
	/* beyond the clock: refused before anything is derived */
	i = kr.evolved;
	cr_assert_neq(audit_keyring_get(&kr, span + AUDIT_KR_AHEAD + 10, k), 0);
	cr_assert_neq(audit_keyring_get(&kr, UINT64_MAX / 2, k), 0);
	cr_assert_eq(kr.evolved, i);
	audit_keyring_wipe(&kr);
	audit_keyring_wipe(&ref);
}
