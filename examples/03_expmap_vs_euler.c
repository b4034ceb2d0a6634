/* 03 exponential map versus Euler angles: the reference Jacobian IK experiment (seed 000).
   Five ball-joint links of length 1 along z; each joint starts at a random yaw-pitch-roll
   (each angle uniform in [0, pi]); the goal is minus the start effector position. The effector
   is walked toward it along the straight line in steps of 0.001 (ik_jacobian_solve with the SVD
   pseudo-inverse, one iteration per call, the error clamped to 0.001 by max_step), counting the
   calls until it is within 0.001; the ideal count is |goal - start| / 0.001 + 1. The RMS of
   (count - ideal) over the trials measures how straight and how evenly the effector moves:
   ball joints parameterized by the exponential map (IK_BALL_EXPMAP) against yaw-pitch-roll
   angles (IK_BALL_EULER). The reference reports RMS 0.68 / 0.85 / 0.66 (exponential map) and
   52.3 / 99.6 / 98.1 (Euler), three runs of 100 trials. The third column repeats the Euler walk
   the way the reference's code does it: before every step each joint's angles are re-extracted
   from its rotation matrix with the pitch taken as asinf() of a float, as D3DX code does.
   Usage: 03_expmap_vs_euler [trials per run]   (default 100; make test runs 3) */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include <stdio.h>
#include <stdlib.h>

static unsigned long long rng;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

// The reference's re-extraction of one ball joint's yaw-pitch-roll: R = Ry(yaw) Rx(pitch) Rz(roll)
// with pitch = asin(-R[1][2]) in single precision. Within sqrt(FLT_EPSILON) ~ 3.5e-4 rad of
// +-pi/2 the float argument rounds to +-1: the pitch snaps to +-pi/2 and stays there until one
// step moves it farther than that (gimbal lock becomes sticky).
static void reextract_like_reference(ik_real *v)
{
    ik_mat3 m = ik_quat_to_mat3(ik_quat_from_expmap(ik_vec3_make(v[0], v[1], v[2])));
    ik_real pitch = (ik_real)asinf((float)-m.m[1][2]);
    ik_real yaw = atan2(m.m[0][2], m.m[2][2]), roll = atan2(m.m[1][0], m.m[1][1]);
    ik_vec3 e = ik_quat_to_expmap(
        ik_quat_from_mat3(ik_mat3_from_euler(ik_vec3_make(yaw, pitch, roll), IK_EULER_YXZ)));
    v[0] = e.x, v[1] = e.y, v[2] = e.z;
}

// Steps from q toward goal until within `step`; returns the number of calls (10000 at most).
static int walk(const ik_chain *chain, ik_real *q, ik_vec3 goal, ik_ball_param param,
                bool like_reference, double step)
{
    static unsigned char scratch[1 << 14];
    ik_jacobian_opts opts = ik_default_jacobian_opts();
    ik_target target = ik_target_position(goal);
    int calls, i;
    opts.method = IK_JACOBIAN_PINV;
    opts.ball_param = param;
    opts.max_iterations = 1;
    opts.max_step = (ik_real)step;
    opts.tolerance = 0;
    for (calls = 0; calls < 10000; calls++) {
        ik_xform e;
        ik_chain_fk(chain, q, NULL, &e);
        if ((double)ik_vec3_length(ik_vec3_sub(goal, e.pos)) < step)
            break;
        for (i = 0; like_reference && i < chain->joint_count; i++)
            reextract_like_reference(q + 3 * i);
        if (ik_jacobian_solve(chain, &target, &opts, q, scratch, sizeof scratch, NULL) != IK_OK)
            return -1;
    }
    return calls;
}

int main(int argc, char **argv)
{
    ik_joint joints[5];
    ik_chain chain;
    int trials = argc > 1 ? atoi(argv[1]) : 100, run, t, i, p;
    const double step = 0.001;
    if (trials < 1)
        trials = 1;
    for (i = 0; i < 5; i++)
        joints[i] = ik_joint_ball(ik_xform_translation(ik_vec3_make(0, 0, i ? 1 : 0)));
    chain = ik_chain_make(joints, 5, ik_xform_translation(ik_vec3_make(0, 0, 1)));
    printf("RMS of (steps - ideal) over %d trials, effector steps of %g\n", trials, step);
    printf("| run | exponential map | Euler angles | Euler, float re-extraction (reference) |\n");
    printf("|-----|-----------------|--------------|----------------------------------------|\n");
    for (run = 0; run < 3; run++) {
        double sum[3] = { 0, 0, 0 };
        rng = 1000 + (unsigned long long)run;
        for (t = 0; t < trials; t++) {
            ik_real q0[15];
            ik_xform start;
            ik_vec3 goal;
            int ideal;
            for (i = 0; i < 5; i++) {
                double yaw = uniform(0, 3.141592653589793), pitch = uniform(0, 3.141592653589793);
                double roll = uniform(0, 3.141592653589793);
                ik_mat3 m = ik_mat3_from_euler(
                    ik_vec3_make((ik_real)yaw, (ik_real)pitch, (ik_real)roll), IK_EULER_YXZ);
                ik_vec3 v = ik_quat_to_expmap(ik_quat_from_mat3(m));
                q0[3 * i] = v.x, q0[3 * i + 1] = v.y, q0[3 * i + 2] = v.z;
            }
            ik_chain_fk(&chain, q0, NULL, &start);
            goal = ik_vec3_negate(start.pos);
            ideal = (int)((double)ik_vec3_length(ik_vec3_sub(goal, start.pos)) / step) + 1;
            for (p = 0; p < 3; p++) {
                ik_real q[15];
                int steps;
                for (i = 0; i < 15; i++)
                    q[i] = q0[i];
                steps = walk(&chain, q, goal, p ? IK_BALL_EULER : IK_BALL_EXPMAP, p == 2, step);
                if (steps < 0)
                    return 1;
                sum[p] += (double)(steps - ideal) * (double)(steps - ideal);
            }
        }
        printf("| %c   | %15.3f | %12.3f | %38.3f |\n", 'A' + run, sqrt(sum[0] / trials),
               sqrt(sum[1] / trials), sqrt(sum[2] / trials));
    }
    return 0;
}
