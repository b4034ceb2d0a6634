/* industrial.h - six-axis industrial arms for ik.h's tests and benchmarks of the closed forms,
   from their published kinematic parameters. Include after ik.h (and bench/arms.h, whose
   arm_def it fills): industrial_build(INDUSTRIAL_UR5E, &arm).

   Universal Robots UR5e and UR10: classic DH of Universal Robots' "DH parameters for
       calculations of kinematics and dynamics" (UR5e: d1 0.1625, a2 -0.425, a3 -0.3922, d4
       0.1333, d5 0.0997, d6 0.0996; UR10: d1 0.1273, a2 -0.612, a3 -0.5723, d4 0.163941, d5
       0.1157, d6 0.0922; alpha pi/2, 0, 0, pi/2, -pi/2, 0), limits +-2 pi as in ur_description.
   ABB IRB 2400: joint origins, axes and limits of ros-industrial/abb,
       abb_irb2400_support/urdf/irb2400_macro.xacro (tool0 at joint 6).
   Fanuc LR Mate 200iD: ros-industrial/fanuc,
       fanuc_lrmate200id_support/urdf/lrmate200id_macro.xacro (tool0 rpy pi, -pi/2, 0).
   KUKA KR 6 R900 sixx: ros-industrial/kuka_experimental,
       kuka_kr6_support/urdf/kr6r900sixx_macro.xacro (tool0 rpy 0, pi/2, 0). */
#ifndef IK_BENCH_INDUSTRIAL_H
#define IK_BENCH_INDUSTRIAL_H

typedef enum industrial_id {
    INDUSTRIAL_UR5E = 0,
    INDUSTRIAL_UR10,
    INDUSTRIAL_IRB2400,
    INDUSTRIAL_LRMATE200ID,
    INDUSTRIAL_KR6R900,
    INDUSTRIAL_COUNT
} industrial_id;

static const char *const industrial_names[INDUSTRIAL_COUNT] = { "ur5e", "ur10", "irb2400",
                                                                "lrmate200id", "kr6r900" };

// A URDF arm: per joint origin xyz, axis xyz, lower, upper; the tool's rpy at joint 6.
static inline ik_result industrial__urdf(arm_def *a, const double (*j)[8], const double *tool_rpy)
{
    ik_joint tool;
    ik_result r = IK_OK;
    int i;
    for (i = 0; i < 6 && r == IK_OK; i++)
        r = ik_joint_from_urdf(IK_JOINT_REVOLUTE,
                               ik_vec3_make((ik_real)j[i][0], (ik_real)j[i][1], (ik_real)j[i][2]),
                               ik_vec3_make(0, 0, 0),
                               ik_vec3_make((ik_real)j[i][3], (ik_real)j[i][4], (ik_real)j[i][5]),
                               (ik_real)j[i][6], (ik_real)j[i][7], &a->joints[i]);
    if (r == IK_OK)
        r = ik_joint_from_urdf(
            IK_JOINT_FIXED, ik_vec3_make(0, 0, 0),
            ik_vec3_make((ik_real)tool_rpy[0], (ik_real)tool_rpy[1], (ik_real)tool_rpy[2]),
            ik_vec3_make(1, 0, 0), 0, 0, &tool);
    if (r == IK_OK)
        a->chain = ik_chain_make(a->joints, 6, tool.origin);
    return r;
}

// A UR arm from its DH lengths d1, a2, a3, d4, d5, d6.
static inline ik_result industrial__ur(arm_def *a, const double *l)
{
    const double p[6][6] = { { 0, ARM_PI / 2, l[0], 0, -2 * ARM_PI, 2 * ARM_PI },
                             { l[1], 0, 0, 0, -2 * ARM_PI, 2 * ARM_PI },
                             { l[2], 0, 0, 0, -2 * ARM_PI, 2 * ARM_PI },
                             { 0, ARM_PI / 2, l[3], 0, -2 * ARM_PI, 2 * ARM_PI },
                             { 0, -ARM_PI / 2, l[4], 0, -2 * ARM_PI, 2 * ARM_PI },
                             { 0, 0, l[5], 0, -2 * ARM_PI, 2 * ARM_PI } };
    return arm__dh(a, p, 6, IK_DH_CLASSIC, 6);
}

// Fills *a with industrial arm id. IK_OK, or an error from the ik.h helpers (never expected).
static inline ik_result industrial_build(industrial_id id, arm_def *a)
{
    static const double ur5e[6] = { 0.1625, -0.425, -0.3922, 0.1333, 0.0997, 0.0996 };
    static const double ur10[6] = { 0.1273, -0.612, -0.5723, 0.163941, 0.1157, 0.0922 };
    static const double irb2400[6][8] = {
        { 0, 0, 0, 0, 0, 1, -3.1416, 3.1416 },     { 0.1, 0, 0.615, 0, 1, 0, -1.7453, 1.9199 },
        { 0, 0, 0.705, 0, 1, 0, -1.0472, 1.1345 }, { 0.258, 0, 0.135, 1, 0, 0, -3.49, 3.49 },
        { 0.497, 0, 0, 0, 1, 0, -2.0944, 2.0944 }, { 0.085, 0, 0, 1, 0, 0, -6.9813, 6.9813 }
    };
    static const double lrmate[6][8] = { { 0, 0, 0.330, 0, 0, 1, -2.965, 2.965 },
                                         { 0.050, 0, 0, 0, 1, 0, -1.745329, 2.530727 },
                                         { 0, 0, 0.330, 0, -1, 0, -2.450966, 4.886922 },
                                         { 0, 0, 0.035, -1, 0, 0, -3.315, 3.315 },
                                         { 0.335, 0, 0, 0, -1, 0, -2.18, 2.18 },
                                         { 0.080, 0, 0, -1, 0, 0, -6.285, 6.285 } };
    static const double kr6[6][8] = { { 0, 0, 0.400, 0, 0, -1, ARM_DEG(-170), ARM_DEG(170) },
                                      { 0.025, 0, 0, 0, 1, 0, ARM_DEG(-190), ARM_DEG(45) },
                                      { 0.455, 0, 0, 0, 1, 0, ARM_DEG(-120), ARM_DEG(156) },
                                      { 0, 0, 0.035, -1, 0, 0, ARM_DEG(-185), ARM_DEG(185) },
                                      { 0.420, 0, 0, 0, 1, 0, ARM_DEG(-120), ARM_DEG(120) },
                                      { 0.080, 0, 0, -1, 0, 0, ARM_DEG(-350), ARM_DEG(350) } };
    static const double no_tool[3] = { 0, 0, 0 }, lrmate_tool[3] = { ARM_PI, -ARM_PI / 2, 0 },
                        kr6_tool[3] = { 0, ARM_PI / 2, 0 };
    ik_result r;
    memset(a, 0, sizeof *a);
    a->name = id >= 0 && id < INDUSTRIAL_COUNT ? industrial_names[id] : "?";
    switch (id) {
    case INDUSTRIAL_UR5E: r = industrial__ur(a, ur5e); break;
    case INDUSTRIAL_UR10: r = industrial__ur(a, ur10); break;
    case INDUSTRIAL_IRB2400: r = industrial__urdf(a, irb2400, no_tool); break;
    case INDUSTRIAL_LRMATE200ID: r = industrial__urdf(a, lrmate, lrmate_tool); break;
    case INDUSTRIAL_KR6R900: r = industrial__urdf(a, kr6, kr6_tool); break;
    default: return IK_ERR_BAD_ARG;
    }
    if (r != IK_OK)
        return r;
    a->chain.joints = a->joints;
    a->dof = ik_chain_dof(&a->chain);
    return a->dof == 6 ? IK_OK : IK_ERR_BAD_ARG;
}

#endif // IK_BENCH_INDUSTRIAL_H
