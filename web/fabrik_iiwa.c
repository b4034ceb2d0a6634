/* fabrik_iiwa.c - why the page gives FABRIK the iiwa's flange position, not its pose (docs/web.md,
   "FABRIK on the iiwa"): ik_fabrik_solve tracking steps of 1 cm in 26 directions (12 steps
   each) from four starts, with a position target and with a pose target (the start's flange
   rotation kept); prints how many solves converged and the largest errors of the others.
     gcc -std=c99 -O2 -o build/fabrik_iiwa web/fabrik_iiwa.c -lm && ./build/fabrik_iiwa */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "../bench/arms.h"
#include <stdio.h>

#define STEPS 12
#define STEP  0.01 // metres

static unsigned char scratch[1 << 17];

// Tracks the flange from state start along each direction; counts into *converged.
static void track(const arm_def *arm, const double *start, int pose, int *converged, int *solves,
                  double *worst_pos, double *worst_rot)
{
    int d, k, j;
    for (d = 0; d < 27; d++) {
        const int dx = d % 3 - 1, dy = d / 3 % 3 - 1, dz = d / 9 - 1;
        const double n = sqrt((double)(dx * dx + dy * dy + dz * dz));
        ik_real q[7];
        ik_xform flange;
        if (dx == 0 && dy == 0 && dz == 0)
            continue;
        for (j = 0; j < 7; j++)
            q[j] = (ik_real)start[j];
        ik_chain_fk(&arm->chain, q, NULL, &flange);
        for (k = 1; k <= STEPS; k++) {
            ik_xform goal = flange;
            ik_target t;
            ik_fabrik_opts opts = ik_default_fabrik_opts();
            ik_solve_info info;
            goal.pos = ik_vec3_add(flange.pos, ik_vec3_make((ik_real)(STEP * k * dx / n),
                                                            (ik_real)(STEP * k * dy / n),
                                                            (ik_real)(STEP * k * dz / n)));
            t = pose ? ik_target_pose(goal) : ik_target_position(goal.pos);
            opts.max_iterations = 500; // (as the page)
            ik_fabrik_solve(&arm->chain, &t, &opts, q, scratch, sizeof scratch, &info, NULL);
            (*solves)++;
            if (info.status == IK_STATUS_CONVERGED) {
                (*converged)++;
                continue;
            }
            *worst_pos = fmax(*worst_pos, (double)info.position_error);
            *worst_rot = fmax(*worst_rot, (double)info.rotation_error);
        }
    }
}

int main(void)
{
    static const double starts[4][7] = { { 0, 0.35, 0, -1.7, 0, 1.09, 0 }, // (the page's)
                                         { 0.3, 0.35, 0.3, -1.7, 0.2, 1.09, 0 },
                                         { 0, 0.5, 0, -1.2, 0, 1.2, 0 },
                                         { 0.2, 0.6, -0.2, -1.4, 0.3, 1.0, 0.1 } };
    arm_def arm;
    int s, pose;
    if (arm_build(ARM_IIWA14, &arm) != IK_OK)
        return 1;
    for (s = 0; s < 4; s++)
        for (pose = 0; pose < 2; pose++) {
            int converged = 0, solves = 0;
            double worst_pos = 0, worst_rot = 0;
            track(&arm, starts[s], pose, &converged, &solves, &worst_pos, &worst_rot);
            printf(
                "start %d, %-8s target: %3d of %d converged; the others at most %.2g m, %.2g rad "
                "off\n",
                s, pose ? "pose" : "position", converged, solves, worst_pos, worst_rot);
        }
    return 0;
}
