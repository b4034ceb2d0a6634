/* 05 arm with a pole, following a path: the analytic 7-DOF limb (ik_limb_solve).
   A human right arm (upper arm 0.30, forearm 0.25, T-pose along +x) follows a wrist target
   around a figure-eight, with the hand turning, while the pole (where the elbow should point)
   sweeps from below the arm to behind it. Look at: the wrist error stays at rounding level, the
   elbow stays in the pole's plane (its swivel follows the pole), and the joint values change
   smoothly from step to step. The last rows push the target out of reach. The limb is prepared
   once (ik_limb_prepare) and solved many times (ik_limb_solve_prepared); a caller that drives
   its own skeleton would pass q = NULL and take the rotations (ik_limb_pose) instead.
   Picture: arm_pole_path.svg, the arm every 8 steps and the paths of the wrist and the elbow,
   seen from the front (x, z) and from above (x, y).
   Usage: 05_arm_pole_path [-o figure-dir] */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "svg.h"

#define STEPS 40

int main(int argc, char **argv)
{
    static double path[2][3][STEPS + 1], pose[6][3][3]; // [wrist, elbow][x y z][step]
    static const char *colors[6] = {
        SVG_BLUE, SVG_ORANGE, SVG_GREEN, SVG_RED, SVG_PURPLE, SVG_BLACK
    };
    svg fig;
    ik_limb arm;
    ik_limb_prepared prepared;
    ik_limb_target target;
    ik_limb_opts opts = ik_default_limb_opts();
    ik_real q[7] = { 0, 0, 0, 0, 0, 0, 0 }, prev[7], swivel;
    ik_joint joints[3];
    ik_xform tip, frames[3], wrist;
    ik_chain chain;
    ik_solve_info info;
    double biggest_step = 0;
    int i, k, v, steps = STEPS;

    arm.base = ik_xform_translation(ik_vec3_make(IK_R(0.2), 0, IK_R(1.4))); // right shoulder
    arm.upper_dir = ik_vec3_make(1, 0, 0);
    arm.lower_dir = ik_vec3_make(1, 0, 0);
    arm.hinge_axis = ik_vec3_make(0, 0, 1); // the elbow bends toward +y (forward) from the T-pose
    arm.upper_length = IK_R(0.30);
    arm.lower_length = IK_R(0.25);
    arm.swivel_ref = ik_vec3_make(0, 0, -1); // swivel 0: elbow pointing down
    arm.limits = NULL;
    if (ik_limb_chain(&arm, joints, &tip) != IK_OK || ik_limb_prepare(&arm, &prepared) != IK_OK)
        return 1;
    chain = ik_chain_make(joints, 3, tip);
    opts.softness = IK_R(0.02); // ease into full extension over the last 2 cm

    target.use_rotation = true;
    target.use_swivel = false;
    target.swivel = 0;
    printf(" step | wrist target (m)       | elbow (m)              | swivel deg | error m  | "
           "status\n");
    for (i = 0; i <= steps + 3; i++) {
        double s = (double)(i < steps ? i : steps) / steps, a = 6.283185307179586 * s;
        double reach = i <= steps ? 0.0 : 0.1 * (i - steps); // the last rows: out of reach
        target.pos =
            ik_vec3_make((ik_real)(0.48 + 0.12 * cos(a) + reach),
                         (ik_real)(0.20 + 0.10 * sin(2 * a)), (ik_real)(1.30 + 0.10 * sin(a)));
        target.rot = ik_quat_from_axis_angle(ik_vec3_make(1, 0, 0), (ik_real)(0.8 * sin(a)));
        // the pole swings from below the shoulder (-z) to behind it (-y)
        target.pole = ik_vec3_make(IK_R(0.5), (ik_real)(-0.5 * s), (ik_real)(0.9 + 0.5 * s));
        for (k = 0; k < 7; k++)
            prev[k] = q[k];
        if (ik_limb_solve_prepared(&prepared, &target, &opts, q, NULL, &info) != IK_OK)
            return 1;
        for (k = 0; k < 7; k++) {
            double d = (double)q[k] - (double)prev[k];
            if (i > 0 && i <= steps && (d < 0 ? -d : d) > biggest_step)
                biggest_step = d < 0 ? -d : d;
        }
        ik_chain_fk(&chain, q, frames, &wrist);
        ik_limb_swivel(&arm, q, &swivel);
        for (k = 0; k < 3 && i <= steps; k++) {
            ik_vec3 p[3] = { frames[0].pos, frames[1].pos, wrist.pos };
            path[0][k][i] = (double)(&wrist.pos.x)[k], path[1][k][i] = (double)(&p[1].x)[k];
            for (v = 0; i % 8 == 0 && v < 3; v++)
                pose[i / 8][k][v] = (double)(&p[v].x)[k];
        }
        if (i % 5 == 0 || i > steps)
            printf(" %4d | %6.3f %6.3f %6.3f   | %6.3f %6.3f %6.3f   | %10.2f | %.1e  | %s\n", i,
                   (double)target.pos.x, (double)target.pos.y, (double)target.pos.z,
                   (double)frames[1].pos.x, (double)frames[1].pos.y, (double)frames[1].pos.z,
                   (double)swivel * 57.29577951308232, (double)info.position_error,
                   ik_status_string(info.status));
    }
    printf("largest change of a joint value between consecutive path steps: %.3f rad\n",
           biggest_step);
    if (svg_open(&fig, svg_dir(argc, argv), "arm_pole_path.svg", 720, 400)) {
        for (v = 0; v < 2; v++) { // v = 0: front view (x, z); 1: top view (x, y)
            int a = v ? 1 : 2;
            svg_panel(&fig, v * 360, 0, 360, 400, 0.1, 0.7, v ? -0.2 : 0.9, v ? 0.5 : 1.6,
                      SVG_EQUAL);
            svg_axes(&fig, "x (m)", v ? "y (m)" : "z (m)",
                     v ? "seen from above" : "seen from the front");
            svg_line(&fig, path[0][0], path[0][a], steps + 1, SVG_GREY, 0);
            svg_line(&fig, path[1][0], path[1][a], steps + 1, SVG_GREY, 1);
            for (k = 0; k < 6; k++)
                svg_chain(&fig, pose[k][0], pose[k][a], 3, colors[k]);
            svg_legend(&fig, SVG_GREY, 0, "wrist path");
            svg_legend(&fig, SVG_GREY, 1, "elbow path");
        }
        svg_close(&fig);
    }
    return biggest_step < 0.5 ? 0 : 1;
}
