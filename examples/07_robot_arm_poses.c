/* 07 a robot arm reaching poses: the Franka Emika Panda (7 revolute joints) built from its
   modified Denavit-Hartenberg table with ik_joints_from_dh, its joint limits, and full-pose
   targets (position and orientation of the flange) solved with ik_jacobian_solve (damped least
   squares) from the "ready" pose. The targets are poses the arm can reach: the flange pose of a
   few known joint vectors. Each answer is checked by forward kinematics. Look at: every target
   converges to a position error below a micrometre and an angle below a microradian within the
   limits, in about ten iterations; the joint values found need not be the ones the target came
   from (a 7-joint arm has a one-parameter family of answers for a pose).
   Picture: robot_arm_poses.svg, the arm at the ready pose and at each answer (side and top view).
   Usage: 07_robot_arm_poses [-o figure-dir] */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "svg.h"

#define PI      3.141592653589793
#define TARGETS 4

int main(int argc, char **argv)
{
    // a, d, alpha, theta (modified DH, Craig), then the limits of q (radians)
    static const double dh[8][6] = { { 0, 0.333, 0, 0, -2.8973, 2.8973 },
                                     { 0, 0, -PI / 2, 0, -1.7628, 1.7628 },
                                     { 0, 0.316, PI / 2, 0, -2.8973, 2.8973 },
                                     { 0.0825, 0, PI / 2, 0, -3.0718, -0.0698 },
                                     { -0.0825, 0.384, -PI / 2, 0, -2.8973, 2.8973 },
                                     { 0, 0, PI / 2, 0, -0.0175, 3.7525 },
                                     { 0.088, 0, PI / 2, 0, -2.8973, 2.8973 },
                                     { 0, 0.107, 0, 0, 0, 0 } }; // flange (fixed)
    static const double from[TARGETS][7] = { { 0.5, -0.3, 0.2, -2.0, 0.1, 1.8, 0.5 },
                                             { -0.8, 0.4, -0.3, -1.5, 0.6, 2.2, -0.4 },
                                             { 1.2, 0.6, 0.4, -1.0, -0.5, 1.2, 1.0 },
                                             { -0.2, -0.9, 0.8, -2.6, -1.0, 2.8, 0.0 } };
    static const double ready[7] = { 0, -PI / 4, 0, -3 * PI / 4, 0, PI / 2, PI / 4 };
    static const char *colors[TARGETS] = { SVG_BLUE, SVG_ORANGE, SVG_GREEN, SVG_PURPLE };
    static unsigned char scratch[1 << 14];
    static double draw[TARGETS + 1][3][10]; // [pose][x y z][base, joint origins, flange]
    ik_dh_row rows[8];
    ik_joint joints[8];
    ik_xform tip, frames[8], flange;
    ik_chain arm;
    ik_jacobian_opts opts = ik_default_jacobian_opts();
    int i, t, k, v, failures = 0;
    svg fig;

    for (i = 0; i < 8; i++) {
        ik_dh_row r = { IK_JOINT_REVOLUTE, 0, 0, 0, 0, 0, 0 };
        r.type = i < 7 ? IK_JOINT_REVOLUTE : IK_JOINT_FIXED;
        r.a = (ik_real)dh[i][0], r.d = (ik_real)dh[i][1];
        r.alpha = (ik_real)dh[i][2], r.theta = (ik_real)dh[i][3];
        r.lo = (ik_real)dh[i][4], r.hi = (ik_real)dh[i][5];
        rows[i] = r;
    }
    if (ik_joints_from_dh(rows, 8, IK_DH_MODIFIED, joints, &tip) != IK_OK)
        return 1;
    arm = ik_chain_make(joints, 8, tip);
    if (ik_jacobian_scratch_size(&arm) > sizeof scratch)
        return 1;
    opts.max_iterations = 200;
    printf("Franka Panda, %d joints; full-pose targets, DLS from the ready pose\n",
           ik_chain_dof(&arm));
    printf("| target | flange target (m)     | iterations | position error | angle error | "
           "status    |\n");
    for (t = 0; t <= TARGETS; t++) {
        ik_real q[7], qt[7];
        ik_solve_info info;
        ik_target target;
        double pos_err, ang_err;
        for (k = 0; k < 7; k++)
            q[k] = (ik_real)ready[k], qt[k] = (ik_real)(t < TARGETS ? from[t][k] : 0);
        if (t < TARGETS) {
            ik_xform goal;
            ik_chain_fk(&arm, qt, NULL, &goal);
            target = ik_target_pose(goal);
            if (ik_jacobian_solve(&arm, &target, &opts, q, scratch, sizeof scratch, &info) != IK_OK)
                return 1;
            // check the answer independently: forward kinematics, limits
            ik_chain_fk(&arm, q, NULL, &flange);
            pos_err = (double)ik_vec3_length(ik_vec3_sub(flange.pos, goal.pos));
            ang_err = (double)ik_quat_to_axis_angle(
                ik_quat_mul(goal.rot, ik_quat_conjugate(flange.rot)), NULL);
            for (k = 0; k < 7; k++)
                if (q[k] < joints[k].lo || q[k] > joints[k].hi)
                    pos_err = 1e9;
            printf("| %6d | %6.3f %6.3f %6.3f  | %10d | %14.1e | %11.1e | %-9s |\n", t + 1,
                   (double)goal.pos.x, (double)goal.pos.y, (double)goal.pos.z, info.iterations,
                   pos_err, ang_err, ik_status_string(info.status));
            if (info.status != IK_STATUS_CONVERGED || pos_err > 1e-6 || ang_err > 1e-6)
                failures++;
        }
        ik_chain_fk(&arm, q, frames, &flange);
        for (v = 0; v < 3; v++) {
            for (k = 0; k < 8; k++)
                draw[t][v][k + 1] = (double)(&frames[k].pos.x)[v];
            draw[t][v][9] = (double)(&flange.pos.x)[v];
        }
    }
    printf("%d of %d targets reached and checked by FK\n", TARGETS - failures, TARGETS);

    if (svg_open(&fig, svg_dir(argc, argv), "robot_arm_poses.svg", 720, 380)) {
        for (v = 0; v < 2; v++) { // side view (x, z), top view (x, y)
            svg_panel(&fig, v * 360, 0, 360, 380, -0.5, 0.8, v ? -0.7 : -0.1, v ? 1.0 : 1.2,
                      SVG_EQUAL);
            svg_axes(&fig, "x (m)", v ? "y (m)" : "z (m)", v ? "from above" : "from the side");
            svg_chain(&fig, draw[TARGETS][0], draw[TARGETS][v ? 1 : 2], 10, SVG_GREY);
            svg_legend(&fig, SVG_GREY, 0, "ready pose");
            for (t = 0; t < TARGETS; t++) {
                char label[32];
                snprintf(label, sizeof label, "answer %d", t + 1);
                svg_chain(&fig, draw[t][0], draw[t][v ? 1 : 2], 10, colors[t]);
                svg_legend(&fig, colors[t], 0, label);
            }
        }
        svg_close(&fig);
    }
    return failures ? 1 : 0;
}
