/* Fuzz target: ik_jacobian_solve (and ik_jacobian_scratch_size), every method and ball-joint
   parameterization, on chains, targets, states, options, rest poses and scratch from the
   bytes. On IK_OK: finite q within every joint's limits, exponential maps of free ball joints
   within pi (the solver reparameterizes), a valid info. On error: q and info untouched, and an
   error code that matches what was made wrong. */
#include "fuzz.h"

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
    o = fz_jacobian_opts(&f, rest, &opts_bad);
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
