/* 02 CCD convergence in 2D: the reference experiment of the tiny 2D CCD solver
   (shared/seeds/004), with ik_ccd_solve on a planar chain of z-axis hinges.
   n identical links of length 1 (along y at rest), a random start (angles uniform in
   [-pi, pi]), the goal (0.9, 0.75); the distance from the effector to the goal after each of the
   first 7 sweeps, for n = 3 and n = 20, each from its own random start, and over 100 random
   starts the median of each sweep's error. The reference printed, from its own random starts:
     n = 3:  1.7e-03 8.8e-05 4.7e-06 2.5e-07 1.3e-08 7.1e-10 3.8e-11
     n = 20: 1.5e-01 1.2e-04 8.5e-08 6.1e-11 4.5e-14 2.6e-15 2.5e-15
   Look at: the same linear (n = 3) and faster (n = 20) decay, down to rounding. */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include <stdio.h>
#include <stdlib.h>

#define MAXN 20

static unsigned long long rng = 12345;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// errors[s] = distance to the goal after sweep s + 1, from a random start
static void run(int n, double errors[7])
{
    ik_joint joints[MAXN];
    ik_real q[MAXN];
    static unsigned char scratch[8192];
    ik_chain chain;
    ik_target goal = ik_target_position(ik_vec3_make(IK_R(0.9), IK_R(0.75), 0));
    ik_ccd_opts opts = ik_default_ccd_opts();
    ik_solve_info info;
    int i, s;
    for (i = 0; i < n; i++) {
        ik_vec3 offset = ik_vec3_make(0, i == 0 ? 0 : 1, 0);
        joints[i] = ik_joint_revolute(ik_xform_translation(offset), ik_vec3_make(0, 0, 1));
        q[i] = (ik_real)uniform(-3.141592653589793, 3.141592653589793);
    }
    chain = ik_chain_make(joints, n, ik_xform_translation(ik_vec3_make(0, 1, 0)));
    opts.max_sweeps = 1; // one sweep per call, to watch the error
    opts.tolerance = 0;
    for (s = 0; s < 7; s++) {
        ik_ccd_solve(&chain, &goal, &opts, q, scratch, sizeof scratch, &info);
        {
            ik_xform e;
            ik_chain_fk(&chain, q, NULL, &e);
            errors[s] = (double)ik_vec3_length(ik_vec3_sub(e.pos, goal.pos));
        }
    }
}

int main(void)
{
    int sizes[2] = { 3, 20 }, k, s, t;
    static double all[100][7];
    for (k = 0; k < 2; k++) {
        double e[7], med[7], col[100];
        run(sizes[k], e);
        printf("n = %-2d one start:   ", sizes[k]);
        for (s = 0; s < 7; s++)
            printf(" %.1e", e[s]);
        for (t = 0; t < 100; t++)
            run(sizes[k], all[t]);
        for (s = 0; s < 7; s++) {
            for (t = 0; t < 100; t++)
                col[t] = all[t][s];
            qsort(col, 100, sizeof(double), cmp);
            med[s] = col[50];
        }
        printf("\nn = %-2d median of 100:", sizes[k]);
        for (s = 0; s < 7; s++)
            printf(" %.1e", med[s]);
        printf("\n");
    }
    return 0;
}
