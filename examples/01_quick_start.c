/* 01 quick start: build a chain, run forward kinematics, take the Jacobian.
   A two-link planar arm (links 1 and 1 along x, hinges about z) and a 3-joint arm with a ball
   shoulder. Look at: the effector position matches the planar formula, and the Jacobian's
   columns are the effector's velocity per unit joint speed. */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include <stdio.h>

int main(void)
{
    ik_joint joints[2];
    ik_chain chain;
    ik_real q[2] = { IK_R(0.5), IK_R(-0.25) }, jac[6 * 2];
    ik_xform effector;
    int r, c;

    joints[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    joints[1] =
        ik_joint_revolute(ik_xform_translation(ik_vec3_make(1, 0, 0)), ik_vec3_make(0, 0, 1));
    chain = ik_chain_make(joints, 2, ik_xform_translation(ik_vec3_make(1, 0, 0)));
    if (ik_chain_jacobian(&chain, q, 6, jac, &effector) != IK_OK)
        return 1;
    printf("planar arm at q = (%.2f, %.2f)\n", (double)q[0], (double)q[1]);
    printf("  effector (%.6f, %.6f, %.6f)\n", (double)effector.pos.x, (double)effector.pos.y,
           (double)effector.pos.z);
    printf("  expected (%.6f, %.6f, 0)\n", cos(0.5) + cos(0.25), sin(0.5) + sin(0.25));
    printf("  Jacobian (rows: vx vy vz wx wy wz)\n");
    for (r = 0; r < 6; r++) {
        printf("   ");
        for (c = 0; c < 2; c++)
            printf(" %9.5f", (double)jac[r * 2 + c]);
        printf("\n");
    }

    {
        // A ball shoulder (3 values: an exponential map), an elbow hinge, a fixed hand.
        ik_joint arm[3];
        ik_real qa[4] = { 0, IK_R(0.3), 0, IK_R(1.2) }; // shoulder exp map, then elbow angle
        ik_xform frames[3];
        ik_result res;
        int i;
        arm[0] = ik_joint_ball(ik_xform_identity());
        arm[1] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 0, IK_R(-0.3))),
                                   ik_vec3_make(1, 0, 0));
        arm[2] = ik_joint_fixed(ik_xform_translation(ik_vec3_make(0, 0, IK_R(-0.25))));
        chain = ik_chain_make(arm, 3, ik_xform_identity());
        printf("arm: %d joints, %d state values\n", chain.joint_count, ik_chain_dof(&chain));
        res = ik_chain_fk(&chain, qa, frames, &effector);
        if (res != IK_OK) {
            printf("error: %s\n", ik_result_string(res));
            return 1;
        }
        for (i = 0; i < 3; i++)
            printf("  frame %d at (%.4f, %.4f, %.4f)\n", i, (double)frames[i].pos.x,
                   (double)frames[i].pos.y, (double)frames[i].pos.z);
        // bad input gets a status code, and the outputs are left alone
        qa[3] = (ik_real)NAN;
        res = ik_chain_fk(&chain, qa, frames, &effector);
        printf("  NaN elbow angle: %s\n", ik_result_string(res));
        if (res != IK_ERR_BAD_ARG)
            return 1;
    }
    return 0;
}
