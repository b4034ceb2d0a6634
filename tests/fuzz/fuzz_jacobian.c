/* Fuzz target: ik_jacobian_solve (and ik_jacobian_scratch_size), every method and ball-joint
   parameterization, on chains, targets, states, options, rest poses and scratch from the
   bytes. On IK_OK: finite q within every joint's limits, exponential maps of free ball joints
   within pi (the solver reparameterizes), a valid info. On error: q and info untouched, and an
   error code that matches what was made wrong. */
#include "fuzz.h"

static ik_jacobian_opts jacobian_opts(fz *f, const ik_real *rest, int *bad)
{
    ik_jacobian_opts o = ik_default_jacobian_opts();
    *bad = 0;
    o.method = (ik_jacobian_method)(fz_u8(f) % 4);
    o.ball_param = (ik_ball_param)(fz_u8(f) % 2);
    o.max_iterations = 1 + fz_u8(f) % 30;
    if (fz_chance(f, 16))
        o.max_iterations = 100;
    if (fz_chance(f, 48))
        o.rest = rest;
    if (fz_chance(f, 64)) {
        f->tainted = 0;
        switch (fz_u8(f) % 16) {
        case 0: o.method = (ik_jacobian_method)fz_int(f, -2, 6), *bad = o.method > 3; break;
        case 1: o.ball_param = (ik_ball_param)fz_int(f, -2, 4), *bad = o.ball_param > 1; break;
        case 2: o.max_iterations = fz_int(f, -3, 3), *bad = o.max_iterations < 1; break;
        case 3: o.tolerance = fz_real(f, 0.01), *bad = !(o.tolerance >= 0); break;
        case 4: o.rotation_tolerance = fz_real(f, 0.01), *bad = !(o.rotation_tolerance >= 0); break;
        case 5: o.orientation_weight = fz_real(f, 1), *bad = !(o.orientation_weight >= 0); break;
        case 6: o.damping = fz_real(f, 0.1), *bad = !(o.damping >= 0); break;
        case 7: o.rcond = fz_real(f, 0.1), *bad = !(o.rcond >= 0 && o.rcond < 1); break;
        case 8: // infinity is the default: no clamping
            o.max_step = fz_chance(f, 32) ? IK_INFINITY : fz_real(f, 1);
            *bad = !(o.max_step > 0);
            f->tainted = 0; // any size, infinite too
            break;
        case 9: o.max_joint_step = fz_real(f, 1), *bad = !(o.max_joint_step > 0); break;
        case 10:
            o.rest_gain = fz_real(f, 0.5);
            *bad = !(o.rest_gain >= 0 && o.rest_gain <= 1);
            break;
        case 11:
            o.min_improvement = fz_real(f, 0.25);
            *bad = !(o.min_improvement >= 0 && o.min_improvement < 1);
            break;
        default: o._valid = fz_int(f, 0, 65535), *bad = 1; break; // not from the defaults
        }
        *bad = *bad || f->tainted;
    }
    return o;
}

FUZZ_TARGET(jacobian)
{
    fz f = fz_begin(data, size);
    fz_solve_case c;
    ik_solve_info info;
    ik_jacobian_opts o;
    ik_real rest[FZ_MAX_DOF];
    int opts_bad, rest_bad, null_opts, i;
    ik_result r;
    fz_solve_case_make(&f, &c, ik_jacobian_scratch_size);
    rest_bad = fz_rest_pose(&f, c.dof, rest);
    o = jacobian_opts(&f, rest, &opts_bad);
    rest_bad = rest_bad && o.rest;
    null_opts = fz_chance(&f, 8);
    if (null_opts)
        opts_bad = rest_bad = 0; // NULL options mean the defaults
    memset(&info, FZ_FILL, sizeof info);
    r = ik_jacobian_solve(c.null_chain ? NULL : &c.chain, c.null_target ? NULL : &c.target,
                          null_opts ? NULL : &o, c.null_q ? NULL : c.q,
                          c.null_scratch ? NULL : c.scratch, c.scratch_size,
                          c.null_info ? NULL : &info);
    if (r == IK_ERR_BAD_ARG && rest_bad)
        c.q_bad = 1; // a bad rest pose is a bad argument too
    fz_solve_case_check(&c, r, opts_bad, &info);
    if (r == IK_OK) {
        FZ_CHECK(!rest_bad);
        if (null_opts || o.ball_param == IK_BALL_EXPMAP) {
            int k = 0;
            for (i = 0; i < c.chain.joint_count; i++) {
                const ik_joint *j = &c.chain.joints[i];
                if (j->type == IK_JOINT_BALL) {
                    ik_real len = ik_vec3_length(ik_vec3_make(c.q[k], c.q[k + 1], c.q[k + 2]));
                    ik_real len0 = ik_vec3_length(ik_vec3_make(c.q0[k], c.q0[k + 1], c.q0[k + 2]));
                    // a joint the solver moved is kept within pi; a frozen one is left alone
                    FZ_CHECK((double)len <= (double)IK_PI * (1 + 1e-5) || len == len0);
                }
                k += ik_joint_type_dof(j->type);
            }
        }
    }
    return 0;
}
