/* Fuzz target: ik_ccd_solve (and ik_ccd_scratch_size) on chains, targets, states, options and
   scratch from the bytes. On IK_OK: finite q within every joint's limits, a valid info, the
   same q to the bit when solved again with info NULL, and the same q and info when the chain is
   prepared (ik_ccd_prepare) and solved twice by ik_ccd_solve_prepared, the prepared bytes
   unchanged. On error: q and info untouched, and an error code that matches what was made
   wrong. */
#include "fuzz.h"

// Options with some fields from the bytes; *bad is set if one is outside its documented range.
static ik_ccd_opts ccd_opts(fz *f, int *bad)
{
    ik_ccd_opts o = ik_default_ccd_opts();
    *bad = 0;
    o.max_sweeps = 1 + fz_u8(f) % 40; // keeps an input fast; the default (100) is tried too
    if (fz_chance(f, 16))
        o.max_sweeps = 100;
    if (fz_chance(f, 64)) {
        f->tainted = 0;
        switch (fz_u8(f) % 9) {
        case 0: o.max_sweeps = fz_int(f, -3, 3), *bad = o.max_sweeps < 1; break;
        case 1: o.tolerance = fz_real(f, 0.01), *bad = !(o.tolerance >= 0); break;
        case 2: o.rotation_tolerance = fz_real(f, 0.01), *bad = !(o.rotation_tolerance >= 0); break;
        case 3: o.position_weight = fz_real(f, 1); break; // any value: < 0 is automatic
        case 4: o.orientation_weight = fz_real(f, 1), *bad = !(o.orientation_weight >= 0); break;
        case 5: o.length_scale = fz_real(f, 1), *bad = !(o.length_scale >= 0); break;
        case 6:
            o.max_angle = fz_real(f, 1);
            *bad = !(o.max_angle > 0 && o.max_angle <= IK_PI);
            break;
        case 7:
            o.min_improvement = fz_real(f, 0.25);
            *bad = !(o.min_improvement >= 0 && o.min_improvement < 1);
            break;
        default: o._valid = fz_int(f, 0, 65535), *bad = 1; break; // not from the defaults
        }
        *bad = *bad || f->tainted;
    }
    return o;
}

FUZZ_TARGET(ccd)
{
    fz f = fz_begin(data, size);
    fz_solve_case c;
    ik_solve_info info;
    ik_ccd_opts o;
    int opts_bad, null_opts;
    ik_result r;
    fz_solve_case_make(&f, &c, ik_ccd_scratch_size);
    o = ccd_opts(&f, &opts_bad);
    null_opts = fz_chance(&f, 8);
    if (null_opts)
        opts_bad = 0; // NULL options mean the defaults
    memset(&info, FZ_FILL, sizeof info);
    r = ik_ccd_solve(c.null_chain ? NULL : &c.chain, c.null_target ? NULL : &c.target,
                     null_opts ? NULL : &o, c.null_q ? NULL : c.q,
                     c.null_scratch ? NULL : c.scratch, c.scratch_size, c.null_info ? NULL : &info);
    fz_solve_case_check(&c, r, opts_bad, &info);
    if (r == IK_OK && !c.null_info) { // without info: the same q to the bit
        ik_real qb[FZ_MAX_DOF];
        memcpy(qb, c.q0, sizeof qb);
        FZ_CHECK(ik_ccd_solve(&c.chain, &c.target, null_opts ? NULL : &o, qb, c.scratch,
                              c.scratch_size, NULL) == IK_OK);
        FZ_CHECK(memcmp(qb, c.q, sizeof qb) == 0);
    }
    if (r == IK_OK && !c.null_info) { // prepared: the same q and info, twice
        static unsigned char prepared[1 << 14], copy[1 << 14], work[1 << 14];
        size_t need = ik_ccd_prepared_size(&c.chain);
        int k;
        FZ_CHECK(need > 0 && need + 3 <= sizeof prepared);
        FZ_CHECK(ik_ccd_prepare(&c.chain, null_opts ? NULL : &o, c.target.use_rotation,
                                prepared + 3, need) == IK_OK);
        memcpy(copy, prepared + 3, need);
        for (k = 0; k < 2; k++) {
            ik_real qk[FZ_MAX_DOF];
            ik_solve_info ik;
            memcpy(qk, c.q0, sizeof qk);
            FZ_CHECK(ik_ccd_solve_prepared(prepared + 3, &c.target, qk, work + k, sizeof work - k,
                                           &ik) == IK_OK);
            FZ_CHECK(memcmp(qk, c.q, sizeof qk) == 0);
            FZ_CHECK(ik.status == info.status && ik.iterations == info.iterations);
            FZ_CHECK(
                memcmp(&ik.position_error, &info.position_error, sizeof ik.position_error) == 0 &&
                memcmp(&ik.rotation_error, &info.rotation_error, sizeof ik.rotation_error) == 0);
        }
        FZ_CHECK(memcmp(copy, prepared + 3, need) == 0);
    }
    return 0;
}
