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
   from its rotation matrix with the pitch taken as asinf() of a float, as its D3DX code does.
   Picture: expmap_vs_euler.svg, how far the effector strays from the straight line during the
   first trial's walk, for all three (log axis).
   Usage: 03_expmap_vs_euler [trials per run] [-o figure-dir]   (default 100; make test runs 3) */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "svg.h"
#include <stdlib.h>

#define MAXCALLS 10000
static double calls_axis[MAXCALLS + 1], stray[3][MAXCALLS + 1];

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
// like_reference: re-extract the angles as the reference does before every step.
// If dev is not NULL, dev[k] = the effector's distance from the line start-goal after k calls.
static int walk(const ik_chain *chain, ik_real *q, ik_vec3 goal, ik_ball_param param,
                bool like_reference, double step, double *dev)
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
    ik_xform e;
    ik_vec3 start, dir;
    ik_chain_fk(chain, q, NULL, &e);
    start = e.pos, dir = ik_vec3_normalize(ik_vec3_sub(goal, start));
    for (calls = 0; calls < MAXCALLS; calls++) {
        ik_chain_fk(chain, q, NULL, &e);
        if (dev) {
            ik_vec3 d = ik_vec3_sub(e.pos, start);
            dev[calls] = (double)ik_vec3_length(ik_vec3_add_scaled(d, dir, -ik_vec3_dot(d, dir)));
        }
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
    int counted[3] = { 0, 0, 0 };
    svg fig;
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
                steps = walk(&chain, q, goal, p ? IK_BALL_EULER : IK_BALL_EXPMAP, p == 2, step,
                             run == 0 && t == 0 ? stray[p] : NULL);
                if (steps < 0)
                    return 1;
                if (run == 0 && t == 0)
                    counted[p] = steps;
                sum[p] += (double)(steps - ideal) * (double)(steps - ideal);
            }
        }
        printf("| %c   | %15.3f | %12.3f | %38.3f |\n", 'A' + run, sqrt(sum[0] / trials),
               sqrt(sum[1] / trials), sqrt(sum[2] / trials));
    }
    for (i = 0; i <= MAXCALLS; i++)
        calls_axis[i] = i;
    if (svg_open(&fig, svg_dir(argc, argv), "expmap_vs_euler.svg", 480, 320)) {
        int most = counted[0] > counted[1] ? counted[0] : counted[1];
        svg_panel(&fig, 0, 0, 480, 320, 0, counted[2] > most ? counted[2] : most, 1e-7, 1,
                  SVG_LOGY);
        svg_axes(&fig, "calls (effector steps of 0.001)", "distance from the line",
                 "5 ball joints walked along a line (run A, trial 1)");
        svg_line(&fig, calls_axis + 1, stray[0] + 1, counted[0], SVG_BLUE, 0);
        svg_line(&fig, calls_axis + 1, stray[1] + 1, counted[1], SVG_ORANGE, 1);
        svg_line(&fig, calls_axis + 1, stray[2] + 1, counted[2], SVG_RED, 0);
        svg_legend(&fig, SVG_BLUE, 0, "exponential map");
        svg_legend(&fig, SVG_ORANGE, 1, "Euler angles");
        svg_legend(&fig, SVG_RED, 0, "Euler, float asin");
        svg_close(&fig);
    }
    return 0;
}
