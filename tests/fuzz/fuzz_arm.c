/* Fuzz target: ik_arm_solve (and ik_arm_scratch_size) on chains, targets, states, options,
   random seeds, stop callbacks and scratch from the bytes, through both of its paths (its own
   DLS attempts, and ik_jacobian_solve() per attempt for other methods, Euler balls or a rest
   pose). On IK_OK: finite q within every joint's limits, a valid info, and the same answer again
   for the same inputs (determinism). On error: q and info untouched, and an error code that
   matches what was made wrong. */
#include "fuzz.h"

typedef struct arm_stop {
    int calls, after;
} arm_stop;

static bool arm_stop_fn(void *user)
{
    arm_stop *s = (arm_stop *)user;
    return ++s->calls > s->after;
}

// Options with some fields from the bytes; *bad is set if one is outside its documented range.
static ik_arm_opts arm_opts(fz *f, const ik_real *rest, arm_stop *stop, int *bad)
{
    ik_arm_opts o = ik_default_arm_opts();
    *bad = 0;
    o.max_attempts = 1 + fz_u8(f) % 6; // keeps an input fast; the default (100) is tried too
    if (fz_chance(f, 32))
        o.max_attempts = 100;
    o.random_seed = (unsigned long long)fz_u8(f) * 0x9e3779b97f4a7c15ull;
    if (fz_chance(f, 8)) {
        stop->after = fz_u8(f) % 4;
        o.stop = arm_stop_fn;
        o.stop_user = stop;
    }
    if (fz_chance(f, 16)) // the other path: ik_jacobian_solve() per attempt
        o.jacobian.method = (ik_jacobian_method)(fz_u8(f) % 4);
    if (fz_chance(f, 16))
        o.jacobian.ball_param = IK_BALL_EULER;
    if (fz_chance(f, 32))
        o.jacobian.rest = rest;
    if (fz_chance(f, 64)) {
        f->tainted = 0;
        switch (fz_u8(f) % 10) {
        case 0: o.max_attempts = fz_int(f, -3, 3), *bad = o.max_attempts < 1; break;
        case 1:
            o.probe_iterations = fz_int(f, -3, 20);
            *bad = o.probe_iterations < 0;
            break;
        case 2: o.probe_error = fz_real(f, 0.5), *bad = !(o.probe_error >= 0); break;
        case 3:
            o.jacobian.max_iterations = fz_int(f, -3, 30), *bad = o.jacobian.max_iterations < 1;
            break;
        case 4: o.jacobian.tolerance = fz_real(f, 0.01), *bad = !(o.jacobian.tolerance >= 0); break;
        case 5: o.jacobian.damping = fz_real(f, 0.1), *bad = !(o.jacobian.damping >= 0); break;
        case 6:
            o.jacobian.max_joint_step = fz_real(f, 1);
            *bad = !(o.jacobian.max_joint_step > 0);
            break;
        case 7:
            o.jacobian.orientation_weight = fz_real(f, 1);
            *bad = !(o.jacobian.orientation_weight >= 0);
            break;
        case 8: o.jacobian._valid = fz_int(f, 0, 65535), *bad = 1; break; // not from the defaults
        default: o._valid = fz_int(f, 0, 65535), *bad = 1; break;
        }
        *bad = *bad || f->tainted;
    }
    return o;
}

FUZZ_TARGET(arm)
{
    fz f = fz_begin(data, size);
    fz_solve_case c;
    ik_solve_info info, info2;
    ik_arm_opts o;
    arm_stop stop = { 0, 0 };
    ik_real rest[FZ_MAX_DOF], q1[FZ_MAX_DOF];
    int opts_bad, rest_bad, null_opts;
    ik_result r;
    fz_solve_case_make(&f, &c, ik_arm_scratch_size);
    rest_bad = fz_rest_pose(&f, c.dof, rest);
    o = arm_opts(&f, rest, &stop, &opts_bad);
    rest_bad = rest_bad && o.jacobian.rest;
    null_opts = fz_chance(&f, 16);
    if (null_opts)
        opts_bad = rest_bad = 0; // NULL options mean the defaults
    memset(&info, FZ_FILL, sizeof info);
    r = ik_arm_solve(c.null_chain ? NULL : &c.chain, c.null_target ? NULL : &c.target,
                     null_opts ? NULL : &o, c.null_q ? NULL : c.q,
                     c.null_scratch ? NULL : c.scratch, c.scratch_size, c.null_info ? NULL : &info);
    if (r == IK_ERR_BAD_ARG && rest_bad)
        c.q_bad = 1; // a bad rest pose is a bad argument too
    fz_solve_case_check(&c, r, opts_bad, &info);
    if (r == IK_OK) {
        FZ_CHECK(!rest_bad);
        // the same inputs give the same answer (the stop callback counts again from 0)
        memcpy(q1, c.q0, sizeof q1);
        stop.calls = 0;
        FZ_CHECK(ik_arm_solve(&c.chain, &c.target, null_opts ? NULL : &o, q1, c.scratch,
                              c.scratch_size, &info2) == IK_OK);
        FZ_CHECK(memcmp(q1, c.q, (size_t)c.dof * sizeof q1[0]) == 0);
        FZ_CHECK(c.null_info || info2.status == info.status);
    }
    return 0;
}
