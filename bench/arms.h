/* arms.h - robot arm chains for ik.h's tests and benchmarks, built from their published kinematic
   parameters. Include after ik.h; arm_build(ARM_IIWA14, &arm) fills an arm_def whose .chain
   points into the arm_def itself (keep the arm_def alive while the chain is used).
   bench/chains/NAME.csv hold the same chains in the command-line tool's segment format: they are
   written from these definitions by bench/ik_problems (so the two cannot disagree).

   KUKA LBR iiwa 14 R820: joint origins, axes and limits of the iiwa14 URDF (RobotLocomotion/drake,
       manipulation/models/iiwa_description/urdf/iiwa14_no_collision.urdf, after iiwa_stack);
       the flange is 0.045 m beyond joint 7. Zero pose: flange at (0, 0, 1.306), the datasheet's
       0.36 + 0.42 + 0.40 + 0.126 m.
   Franka Emika Panda: modified DH table and joint limits of Franka's documentation ("Robot and
       interface specifications", Denavit-Hartenberg parameters), to the flange (d = 0.107).
       Ready pose (0, -pi/4, 0, -3pi/4, 0, pi/2, pi/4): flange at (0.3069, 0, 0.5903).
   Universal Robots UR5: classic DH of Universal Robots' "DH parameters for calculations of
       kinematics and dynamics" (d1 0.089159, a2 -0.425, a3 -0.39225, d4 0.10915, d5 0.09465,
       d6 0.0823), limits +-2 pi as in ur_description. Zero pose: tool at
       (-0.81725, -0.19145, -0.005491).
   Human arm: a right arm hanging down (-z) from the shoulder: shoulder flexion (about y),
       abduction (x) and rotation (z) with intersecting axes, upper arm 0.30, elbow flexion (y),
       forearm 0.25, forearm rotation (z, along the forearm), wrist flexion (y) and deviation (x)
       with intersecting axes, hand 0.08 to the palm. Ranges of motion after the AAOS tables
       (flexion -60..180 deg, abduction -30..180, rotation -90..90, elbow 0..150, pronation
       -90..90, wrist flexion -70..80, deviation -20..30).
   Planar 3, 7, 20: unit links, revolute joints about z with limits +-pi, position targets only.
   Leg (arm_build_leg(), not one of the arm_ids: no chain file, not in the arm benchmark): a right
       leg hanging down (-z) from the pelvis: hip flexion (x, -30..120 deg), abduction (y,
       -45..30) and rotation (z, -90..90) with intersecting axes at (0.1, 0, -0.05), knee (about
       -x, 0..150) 0.43 below, ankle flexion (x, -45..30) 0.44 below the knee and ankle
       inversion (y, -30..30) at the same point; the effector is the ankle. */
#ifndef IK_BENCH_ARMS_H
#define IK_BENCH_ARMS_H

#define ARM_MAX_JOINTS 24

typedef enum arm_id {
    ARM_IIWA14 = 0,
    ARM_PANDA,
    ARM_HUMAN,
    ARM_UR5,
    ARM_PLANAR3,
    ARM_PLANAR7,
    ARM_PLANAR20,
    ARM_COUNT
} arm_id;

typedef struct arm_def {
    const char *name;   // file-name friendly: "iiwa14", "panda", ...
    bool position_only; // the protocol solves position targets only (planar chains)
    int dof;
    ik_joint joints[ARM_MAX_JOINTS];
    ik_chain chain; // points at joints
} arm_def;

#define ARM_PI     3.14159265358979323846
#define ARM_DEG(x) ((x)*ARM_PI / 180)

static const char *const arm_names[ARM_COUNT] = { "iiwa14",  "panda",   "human",   "ur5",
                                                  "planar3", "planar7", "planar20" };

// A revolute joint about a coordinate axis (0, 1, 2) at a translation from the parent frame.
static inline ik_joint arm__revolute(double x, double y, double z, int axis, double lo, double hi)
{
    ik_joint j =
        ik_joint_revolute(ik_xform_translation(ik_vec3_make((ik_real)x, (ik_real)y, (ik_real)z)),
                          ik_vec3_make(axis == 0, axis == 1, axis == 2));
    j.lo = (ik_real)lo;
    j.hi = (ik_real)hi;
    return j;
}

static inline ik_result arm__dh(arm_def *a, const double (*p)[6], int rows, ik_dh_convention conv,
                                int moving)
{
    ik_dh_row dh[ARM_MAX_JOINTS];
    ik_xform tip;
    ik_result r;
    int i;
    for (i = 0; i < rows; i++) {
        dh[i].type = i < moving ? IK_JOINT_REVOLUTE : IK_JOINT_FIXED;
        dh[i].a = (ik_real)p[i][0];
        dh[i].alpha = (ik_real)p[i][1];
        dh[i].d = (ik_real)p[i][2];
        dh[i].theta = (ik_real)p[i][3];
        dh[i].lo = (ik_real)p[i][4];
        dh[i].hi = (ik_real)p[i][5];
    }
    r = ik_joints_from_dh(dh, rows, conv, a->joints, &tip);
    if (r != IK_OK)
        return r;
    // a trailing fixed row (the Panda's flange) folds into the tip
    if (moving < rows) {
        tip = ik_xform_mul(a->joints[moving].origin, tip);
        rows = moving;
    }
    a->chain = ik_chain_make(a->joints, rows, tip);
    return IK_OK;
}

// Fills *a with arm `id`. IK_OK, or an error from the ik.h helpers (never expected).
static inline ik_result arm_build(arm_id id, arm_def *a)
{
    ik_result r = IK_OK;
    int i;
    memset(a, 0, sizeof *a);
    a->name = id >= 0 && id < ARM_COUNT ? arm_names[id] : "?";
    switch (id) {
    case ARM_IIWA14: {
        // URDF <origin xyz rpy> of joints 1..7, all about z
        static const double o[7][6] = { { 0, 0, 0.1575, 0, 0, 0 },
                                        { 0, 0, 0.2025, ARM_PI / 2, 0, ARM_PI },
                                        { 0, 0.2045, 0, ARM_PI / 2, 0, ARM_PI },
                                        { 0, 0, 0.2155, ARM_PI / 2, 0, 0 },
                                        { 0, 0.1845, 0, -ARM_PI / 2, ARM_PI, 0 },
                                        { 0, 0, 0.2155, ARM_PI / 2, 0, 0 },
                                        { 0, 0.081, 0, -ARM_PI / 2, ARM_PI, 0 } };
        static const double lim[7] = { 170, 120, 170, 120, 170, 120, 175 };
        for (i = 0; i < 7 && r == IK_OK; i++)
            r = ik_joint_from_urdf(
                IK_JOINT_REVOLUTE,
                ik_vec3_make((ik_real)o[i][0], (ik_real)o[i][1], (ik_real)o[i][2]),
                ik_vec3_make((ik_real)o[i][3], (ik_real)o[i][4], (ik_real)o[i][5]),
                ik_vec3_make(0, 0, 1), (ik_real)ARM_DEG(-lim[i]), (ik_real)ARM_DEG(lim[i]),
                &a->joints[i]);
        a->chain =
            ik_chain_make(a->joints, 7, ik_xform_translation(ik_vec3_make(0, 0, (ik_real)0.045)));
        break;
    }
    case ARM_PANDA: {
        // modified DH: a_{i-1}, alpha_{i-1}, d_i, theta_i, limits; the flange as a fixed row
        static const double p[8][6] = { { 0, 0, 0.333, 0, -2.8973, 2.8973 },
                                        { 0, -ARM_PI / 2, 0, 0, -1.7628, 1.7628 },
                                        { 0, ARM_PI / 2, 0.316, 0, -2.8973, 2.8973 },
                                        { 0.0825, ARM_PI / 2, 0, 0, -3.0718, -0.0698 },
                                        { -0.0825, -ARM_PI / 2, 0.384, 0, -2.8973, 2.8973 },
                                        { 0, ARM_PI / 2, 0, 0, -0.0175, 3.7525 },
                                        { 0.088, ARM_PI / 2, 0, 0, -2.8973, 2.8973 },
                                        { 0, 0, 0.107, 0, 0, 0 } };
        r = arm__dh(a, p, 8, IK_DH_MODIFIED, 7);
        break;
    }
    case ARM_UR5: {
        // classic DH: a, alpha, d, theta, limits
        static const double p[6][6] = { { 0, ARM_PI / 2, 0.089159, 0, -2 * ARM_PI, 2 * ARM_PI },
                                        { -0.425, 0, 0, 0, -2 * ARM_PI, 2 * ARM_PI },
                                        { -0.39225, 0, 0, 0, -2 * ARM_PI, 2 * ARM_PI },
                                        { 0, ARM_PI / 2, 0.10915, 0, -2 * ARM_PI, 2 * ARM_PI },
                                        { 0, -ARM_PI / 2, 0.09465, 0, -2 * ARM_PI, 2 * ARM_PI },
                                        { 0, 0, 0.0823, 0, -2 * ARM_PI, 2 * ARM_PI } };
        r = arm__dh(a, p, 6, IK_DH_CLASSIC, 6);
        break;
    }
    case ARM_HUMAN:
        a->joints[0] = arm__revolute(0, 0, 0, 1, ARM_DEG(-60), ARM_DEG(180));    // flexion
        a->joints[1] = arm__revolute(0, 0, 0, 0, ARM_DEG(-30), ARM_DEG(180));    // abduction
        a->joints[2] = arm__revolute(0, 0, 0, 2, ARM_DEG(-90), ARM_DEG(90));     // rotation
        a->joints[3] = arm__revolute(0, 0, -0.30, 1, ARM_DEG(0), ARM_DEG(150));  // elbow
        a->joints[4] = arm__revolute(0, 0, -0.25, 2, ARM_DEG(-90), ARM_DEG(90)); // pronation
        a->joints[5] = arm__revolute(0, 0, 0, 1, ARM_DEG(-70), ARM_DEG(80));     // wrist flexion
        a->joints[6] = arm__revolute(0, 0, 0, 0, ARM_DEG(-20), ARM_DEG(30));     // deviation
        a->chain =
            ik_chain_make(a->joints, 7, ik_xform_translation(ik_vec3_make(0, 0, (ik_real)-0.08)));
        break;
    case ARM_PLANAR3:
    case ARM_PLANAR7:
    case ARM_PLANAR20: {
        int n = id == ARM_PLANAR3 ? 3 : id == ARM_PLANAR7 ? 7 : 20;
        for (i = 0; i < n; i++)
            a->joints[i] = arm__revolute(i > 0 ? 1 : 0, 0, 0, 2, -ARM_PI, ARM_PI);
        a->chain = ik_chain_make(a->joints, n, ik_xform_translation(ik_vec3_make(1, 0, 0)));
        a->position_only = true;
        break;
    }
    default: return IK_ERR_BAD_ARG;
    }
    if (r != IK_OK)
        return r;
    a->chain.joints = a->joints;
    a->dof = ik_chain_dof(&a->chain);
    return a->dof > 0 ? IK_OK : IK_ERR_BAD_ARG;
}

// Fills *a with the leg (see the top of this file). IK_OK (always).
static inline ik_result arm_build_leg(arm_def *a)
{
    memset(a, 0, sizeof *a);
    a->name = "leg";
    a->joints[0] = arm__revolute(0.1, 0, -0.05, 0, ARM_DEG(-30), ARM_DEG(120)); // hip flexion
    a->joints[1] = arm__revolute(0, 0, 0, 1, ARM_DEG(-45), ARM_DEG(30));        // abduction
    a->joints[2] = arm__revolute(0, 0, 0, 2, ARM_DEG(-90), ARM_DEG(90));        // rotation
    a->joints[3] = arm__revolute(0, 0, -0.43, 0, ARM_DEG(0), ARM_DEG(150));     // knee
    a->joints[3].axis = ik_vec3_make(-1, 0, 0);
    a->joints[4] = arm__revolute(0, 0, -0.44, 0, ARM_DEG(-45), ARM_DEG(30)); // ankle flexion
    a->joints[5] = arm__revolute(0, 0, 0, 1, ARM_DEG(-30), ARM_DEG(30));     // inversion
    a->chain = ik_chain_make(a->joints, 6, ik_xform_identity());
    a->dof = 6;
    return IK_OK;
}

#endif // IK_BENCH_ARMS_H
