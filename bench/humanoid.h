/* humanoid.h - a human skeleton for ik_skeleton_solve(), as data: the examples' and the
   benchmarks' figure. Include after ik.h; static inline functions, no allocation.

       humanoid h;
       ik_real q[HUMANOID_DOF];
       ik_effector effectors[HUMANOID_EFFECTORS];
       humanoid_build(&h);  // h.skeleton points into h: keep h alive and do not copy it
       humanoid_rest(&h, q); // standing
       humanoid_effectors(&h, feet, hands, look_at, effectors);
       ik_skeleton_solve(&h.skeleton, effectors, HUMANOID_EFFECTORS, &opts, q, ...);

   The figure is 1.75 m tall, y up, facing +z, its left side toward +x. At q = 0 every joint
   frame has the root frame's axes and the body is in the T-pose of ik_limb_humanoid() (arms
   along +-x, legs along -y), so that the limb limits apply as they stand; humanoid_rest() lets
   the arms down and bends the knees a little. 27 joints, 55 values: a floating pelvis (position
   and rotation, ik_joints_floating_root()), three spine balls, neck and head balls; per side a
   clavicle (two hinges: elevation, then protraction), shoulder ball, elbow hinge, wrist ball,
   hip ball, knee hinge, ankle ball, toe hinge.

   Lengths (metres) from Winter's segment proportions of the height H = 1.75 (Biomechanics and
   Motor Control of Human Movement, fig. 4.1), rounded: upper arm 0.33 (0.186 H), forearm 0.26
   (0.146 H), thigh 0.43 (0.245 H), shank 0.43 (0.246 H), ankle 0.07 above the sole (0.039 H);
   standing, the shoulders 1.43 high (0.818 H) and 0.36 apart, the eyes 1.65 high (0.936 H), the
   hips 0.18 apart; the palm 0.08 beyond the wrist, the ball of the foot 0.14 ahead of the
   ankle.

   Limits: shoulders, elbows, wrists, hips, knees and ankles are ik_limb_humanoid()'s (AAOS
   ranges, docs/limits.md, "A humanoid arm and leg"). The others, from the same AAOS tables
   (Norkin and White) and Neumann (Kinesiology of the Musculoskeletal System, ch. 5 and 9):
   - spine: thoracolumbar flexion 80, extension 25, lateral flexion 35, rotation 45 degrees,
     shared by the three spine joints: each a cone of 27 fore-aft, 12 sideways, twist +-15;
   - neck and head: cervical flexion 45, extension 45, lateral flexion 45, rotation 60 each way,
     halved between the two: each a cone of 23 fore-aft, 23 sideways, twist +-30;
   - clavicle (sternoclavicular joint): elevation 45, depression 10, protraction and retraction
     about 15-20 each; here elevation -10..30 and protraction -15..15 (modest: the shoulder
     ball does most of the work);
   - toe (first metatarsophalangeal joint): extension 70, flexion 45 (AAOS).
   As in ik_limb_humanoid(), a cone is symmetric: each half-angle is the larger motion of its
   pair. */
#ifndef IK_BENCH_HUMANOID_H
#define IK_BENCH_HUMANOID_H

// The joints, each after its parent (the floating root's three prismatic joints are 0..2).
enum {
    HUMANOID_PELVIS = 3, // the floating root's ball: the body hangs from it
    HUMANOID_SPINE1,
    HUMANOID_SPINE2,
    HUMANOID_CHEST,
    HUMANOID_NECK,
    HUMANOID_HEAD,
    HUMANOID_L_CLAVICLE,  // elevation (a hinge about z)
    HUMANOID_L_CLAVICLE2, // protraction (a hinge about y)
    HUMANOID_L_SHOULDER,
    HUMANOID_L_ELBOW,
    HUMANOID_L_WRIST,
    HUMANOID_R_CLAVICLE, // the right arm: the left's joints + HUMANOID_RIGHT_ARM
    HUMANOID_R_CLAVICLE2,
    HUMANOID_R_SHOULDER,
    HUMANOID_R_ELBOW,
    HUMANOID_R_WRIST,
    HUMANOID_L_HIP,
    HUMANOID_L_KNEE,
    HUMANOID_L_ANKLE,
    HUMANOID_L_TOE,
    HUMANOID_R_HIP, // the right leg: the left's joints + HUMANOID_RIGHT_LEG
    HUMANOID_R_KNEE,
    HUMANOID_R_ANKLE,
    HUMANOID_R_TOE,
    HUMANOID_JOINTS
};
#define HUMANOID_RIGHT_ARM (HUMANOID_R_CLAVICLE - HUMANOID_L_CLAVICLE)
#define HUMANOID_RIGHT_LEG (HUMANOID_R_HIP - HUMANOID_L_HIP)
#define HUMANOID_DOF       55

// The standard effectors, in humanoid_effectors()'s order.
enum {
    HUMANOID_LEFT_FOOT,  // pose of the sole under the ankle (priority 0)
    HUMANOID_RIGHT_FOOT, // (priority 0)
    HUMANOID_LEFT_HAND,  // pose of the palm (priority 1)
    HUMANOID_RIGHT_HAND, // (priority 1)
    HUMANOID_GAZE,       // the head's +z from between the eyes aims at a point (priority 1)
    HUMANOID_EFFECTORS
};

typedef struct humanoid {
    ik_joint joints[HUMANOID_JOINTS];
    int parents[HUMANOID_JOINTS];
    ik_ball_limit limits[HUMANOID_JOINTS]; // a ball joint's limit (not the pelvis's: free)
    ik_skeleton skeleton;                  // points at joints and parents
    int index[HUMANOID_JOINTS];            // each joint's first value in q
    int effector_joint[HUMANOID_EFFECTORS];
    ik_xform effector_offset[HUMANOID_EFFECTORS];
} humanoid;

#define HUMANOID_DEG(x) ((ik_real)(x) * (IK_PI / 180))

// A joint's name, for reports ("?" out of range).
static inline const char *humanoid_joint_name(int joint)
{
    static const char *const names[HUMANOID_JOINTS] = {
        "root x",  "root y",  "root z",     "pelvis",       "spine 1",      "spine 2",
        "chest",   "neck",    "head",       "l clavicle",   "l clavicle 2", "l shoulder",
        "l elbow", "l wrist", "r clavicle", "r clavicle 2", "r shoulder",   "r elbow",
        "r wrist", "l hip",   "l knee",     "l ankle",      "l toe",        "r hip",
        "r knee",  "r ankle", "r toe"
    };
    return joint >= 0 && joint < HUMANOID_JOINTS ? names[joint] : "?";
}

static inline ik_xform humanoid__at(double x, double y, double z)
{
    return ik_xform_translation(ik_vec3_make((ik_real)x, (ik_real)y, (ik_real)z));
}

// Joint i: j hung from parent, with its ball limit (NULL: none).
static inline void humanoid__add(humanoid *h, int i, int parent, ik_joint j,
                                 const ik_ball_limit *limit)
{
    h->joints[i] = j;
    h->parents[i] = parent;
    if (limit) {
        h->limits[i] = *limit;
        h->joints[i].limit = &h->limits[i];
    }
}

// A hinge at (x, y, z) from its parent about axis, limited to lo..hi degrees.
static inline ik_joint humanoid__hinge(double x, double y, double z, ik_vec3 axis, double lo,
                                       double hi)
{
    ik_joint j = ik_joint_revolute(humanoid__at(x, y, z), axis);
    j.lo = HUMANOID_DEG(lo);
    j.hi = HUMANOID_DEG(hi);
    return j;
}

// A ball at height y above its parent, bone along +y, cone fore_aft (toward z) by sideways
// degrees and twist -twist..twist (the spine, neck and head).
static inline ik_result humanoid__spine(humanoid *h, int i, double y, double fore_aft,
                                        double sideways, double twist)
{
    ik_ball_limit limit;
    ik_result r = ik_ball_limit_make(ik_vec3_make(0, 1, 0), ik_vec3_make(0, 0, 1),
                                     HUMANOID_DEG(fore_aft), HUMANOID_DEG(sideways),
                                     HUMANOID_DEG(-twist), HUMANOID_DEG(twist), &limit);
    humanoid__add(h, i, i - 1, ik_joint_ball(humanoid__at(0, y, 0)), &limit);
    return r;
}

// One side's arm and leg (side 0 left, +x; 1 right, -x), their limits ik_limb_humanoid()'s.
static inline ik_result humanoid__limbs(humanoid *h, int side)
{
    const int a = HUMANOID_L_CLAVICLE + side * HUMANOID_RIGHT_ARM;
    const int l = HUMANOID_L_HIP + side * HUMANOID_RIGHT_LEG;
    const double s = side ? -1 : 1;
    ik_limb arm, leg;
    ik_limb_limits arm_limits, leg_limits;
    ik_result r = ik_limb_humanoid(side ? IK_HUMANOID_RIGHT_ARM : IK_HUMANOID_LEFT_ARM,
                                   (ik_real)0.33, (ik_real)0.26, &arm, &arm_limits);
    if (r == IK_OK)
        r = ik_limb_humanoid(side ? IK_HUMANOID_RIGHT_LEG : IK_HUMANOID_LEFT_LEG, (ik_real)0.43,
                             (ik_real)0.43, &leg, &leg_limits);
    if (r != IK_OK)
        return r;
    // clavicle from the top of the sternum to the shoulder, elevation then protraction
    humanoid__add(h, a, HUMANOID_CHEST,
                  humanoid__hinge(0.02 * s, 0.08, 0.05, ik_vec3_make(0, 0, (ik_real)s), -10, 30),
                  NULL);
    humanoid__add(h, a + 1, a, humanoid__hinge(0, 0, 0, ik_vec3_make(0, (ik_real)-s, 0), -15, 15),
                  NULL);
    humanoid__add(h, a + 2, a + 1, ik_joint_ball(humanoid__at(0.16 * s, 0.02, -0.05)),
                  &arm_limits.shoulder);
    humanoid__add(h, a + 3, a + 2, ik_joint_revolute(humanoid__at(0.33 * s, 0, 0), arm.hinge_axis),
                  NULL);
    h->joints[a + 3].lo = arm_limits.elbow_lo;
    h->joints[a + 3].hi = arm_limits.elbow_hi;
    humanoid__add(h, a + 4, a + 3, ik_joint_ball(humanoid__at(0.26 * s, 0, 0)), &arm_limits.wrist);
    // hip, knee, ankle, and the toe hinge at the ball of the foot (extension is about -x)
    humanoid__add(h, l, HUMANOID_PELVIS, ik_joint_ball(humanoid__at(0.09 * s, -0.07, 0)),
                  &leg_limits.shoulder);
    humanoid__add(h, l + 1, l, ik_joint_revolute(humanoid__at(0, -0.43, 0), leg.hinge_axis), NULL);
    h->joints[l + 1].lo = leg_limits.elbow_lo;
    h->joints[l + 1].hi = leg_limits.elbow_hi;
    humanoid__add(h, l + 2, l + 1, ik_joint_ball(humanoid__at(0, -0.43, 0)), &leg_limits.wrist);
    humanoid__add(h, l + 3, l + 2, humanoid__hinge(0, -0.05, 0.14, ik_vec3_make(1, 0, 0), -70, 45),
                  NULL);
    // effectors: the palm 8 cm beyond the wrist, the sole 7 cm below the ankle, 5 cm forward
    h->effector_joint[HUMANOID_LEFT_HAND + side] = a + 4;
    h->effector_offset[HUMANOID_LEFT_HAND + side] = humanoid__at(0.08 * s, 0, 0);
    h->effector_joint[HUMANOID_LEFT_FOOT + side] = l + 2;
    h->effector_offset[HUMANOID_LEFT_FOOT + side] = humanoid__at(0, -0.07, 0.05);
    return IK_OK;
}

// Fills *h. IK_OK, or an error from ik.h's helpers (never expected).
static inline ik_result humanoid_build(humanoid *h)
{
    ik_result r;
    int i;
    memset(h, 0, sizeof *h);
    ik_joints_floating_root(h->joints);
    for (i = 0; i < 4; i++)
        h->parents[i] = i - 1;
    // pelvis (hip height) -> spine 10, 12, 12 cm -> neck base 16 cm -> head (skull base) 8 cm
    r = humanoid__spine(h, HUMANOID_SPINE1, 0.10, 27, 12, 15);
    if (r == IK_OK)
        r = humanoid__spine(h, HUMANOID_SPINE2, 0.12, 27, 12, 15);
    if (r == IK_OK)
        r = humanoid__spine(h, HUMANOID_CHEST, 0.12, 27, 12, 15);
    if (r == IK_OK)
        r = humanoid__spine(h, HUMANOID_NECK, 0.16, 23, 23, 30);
    if (r == IK_OK)
        r = humanoid__spine(h, HUMANOID_HEAD, 0.08, 23, 23, 30);
    for (i = 0; i < 2 && r == IK_OK; i++)
        r = humanoid__limbs(h, i);
    h->effector_joint[HUMANOID_GAZE] = HUMANOID_HEAD;
    h->effector_offset[HUMANOID_GAZE] = humanoid__at(0, 0.08, 0.09); // between the eyes
    h->skeleton = ik_skeleton_make(h->joints, h->parents, HUMANOID_JOINTS);
    for (i = 0; i < HUMANOID_JOINTS; i++)
        h->index[i] = ik_skeleton_state_index(&h->skeleton, i);
    if (r == IK_OK && ik_skeleton_dof(&h->skeleton) != HUMANOID_DOF)
        r = IK_ERR_BAD_ARG;
    return r;
}

// Sets joint's value in q: a ball's rotation about axis by degrees, a hinge's angle (axis unused).
static inline void humanoid__set(const humanoid *h, ik_real *q, int joint, ik_vec3 axis,
                                 double degrees)
{
    const int k = h->index[joint];
    if (h->joints[joint].type == IK_JOINT_BALL) {
        q[k] = axis.x * HUMANOID_DEG(degrees);
        q[k + 1] = axis.y * HUMANOID_DEG(degrees);
        q[k + 2] = axis.z * HUMANOID_DEG(degrees);
    } else {
        q[k] = HUMANOID_DEG(degrees);
    }
}

// Standing: arms down at the sides (80 degrees below the T-pose, the elbows bent 15), hips and
// ankles flexed 8 degrees and the knees 16 (the feet flat), the soles on y = 0.
static inline void humanoid_rest(const humanoid *h, ik_real q[HUMANOID_DOF])
{
    ik_xform frames[HUMANOID_JOINTS];
    ik_vec3 sole;
    int side;
    memset(q, 0, HUMANOID_DOF * sizeof *q);
    for (side = 0; side < 2; side++) {
        const int a = HUMANOID_L_CLAVICLE + side * HUMANOID_RIGHT_ARM;
        const int l = HUMANOID_L_HIP + side * HUMANOID_RIGHT_LEG;
        humanoid__set(h, q, a + 2, ik_vec3_make(0, 0, side ? 1 : -1), 80);
        humanoid__set(h, q, a + 3, ik_vec3_make(0, 0, 0), 15);
        humanoid__set(h, q, l, ik_vec3_make(-1, 0, 0), 8);
        humanoid__set(h, q, l + 1, ik_vec3_make(0, 0, 0), 16);
        humanoid__set(h, q, l + 2, ik_vec3_make(-1, 0, 0), 8);
    }
    ik_skeleton_fk(&h->skeleton, q, frames);
    sole = ik_xform_apply(frames[HUMANOID_L_ANKLE], h->effector_offset[HUMANOID_LEFT_FOOT].pos);
    q[1] = -sole.y; // (the pelvis's y)
}

// The effector frames at q: out[HUMANOID_EFFECTORS] (errors as ik_skeleton_fk()).
static inline ik_result humanoid_effector_frames(const humanoid *h, const ik_real *q, ik_xform *out)
{
    ik_xform frames[HUMANOID_JOINTS];
    ik_result r = ik_skeleton_fk(&h->skeleton, q, frames);
    int e;
    for (e = 0; r == IK_OK && e < HUMANOID_EFFECTORS; e++)
        out[e] = ik_xform_mul(frames[h->effector_joint[e]], h->effector_offset[e]);
    return r;
}

// The five standard effectors: the soles at feet[2] (left, right) and the palms at hands[2] as
// full poses, the head looking at look_at; feet priority 0, hands and head 1.
static inline void humanoid_effectors(const humanoid *h, const ik_xform feet[2],
                                      const ik_xform hands[2], ik_vec3 look_at,
                                      ik_effector out[HUMANOID_EFFECTORS])
{
    int e;
    for (e = 0; e < HUMANOID_EFFECTORS; e++) {
        const ik_xform *t = e < 2 ? &feet[e] : e < 4 ? &hands[e - 2] : NULL;
        out[e] = ik_effector_make(h->effector_joint[e], h->effector_offset[e],
                                  t ? IK_EFFECTOR_POSE : IK_EFFECTOR_AIM, t ? t->pos : look_at);
        if (t)
            out[e].target_rot = t->rot;
        out[e].priority = e >= HUMANOID_LEFT_HAND;
    }
}

// The first joint of q outside its limits (hinges lo..hi, balls ik_ball_limit_contains()), or
// -1 when every limit holds.
static inline int humanoid_limit_broken(const humanoid *h, const ik_real *q)
{
    int i;
    for (i = 0; i < HUMANOID_JOINTS; i++) {
        const ik_joint *j = &h->joints[i];
        const ik_real *v = q + h->index[i];
        if (j->type == IK_JOINT_BALL && j->limit &&
            !ik_ball_limit_contains(j->limit, ik_quat_from_expmap(ik_vec3_make(v[0], v[1], v[2]))))
            return i;
        if (j->type != IK_JOINT_BALL && (v[0] < j->lo || v[0] > j->hi))
            return i;
    }
    return -1;
}

#endif // IK_BENCH_HUMANOID_H
