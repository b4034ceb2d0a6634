/* arm_chain.h - between ik.h chains and the segment lists of arm_csv.h (include both first).
   ik.h: F_i = F_{i-1} * origin_i * motion_i(q), effector F_{n-1} * tip. Segments:
   pose_i = pose_{i-1} * Rot_axis(q_i) * Tip_i. So a joint's origin is the Tip of the segments
   before it (composed), and a segment's Tip is the next joint's origin (or the chain's tip). */
#ifndef IK_BENCH_ARM_CHAIN_H
#define IK_BENCH_ARM_CHAIN_H

static inline void arm__xform_to_seg(ik_xform x, csv_segment *g)
{
    ik_mat3 m = ik_quat_to_mat3(x.rot);
    int k;
    for (k = 0; k < 9; k++)
        g->r[k] = (double)m.m[k / 3][k % 3];
    g->p[0] = (double)x.pos.x;
    g->p[1] = (double)x.pos.y;
    g->p[2] = (double)x.pos.z;
}

static inline ik_xform arm__seg_to_xform(const csv_segment *g)
{
    ik_mat3 m;
    int k;
    for (k = 0; k < 9; k++)
        m.m[k / 3][k % 3] = (ik_real)g->r[k];
    return ik_xform_make(ik_quat_from_mat3(m),
                         ik_vec3_make((ik_real)g->p[0], (ik_real)g->p[1], (ik_real)g->p[2]));
}

// The segments of an ik.h chain of revolute joints about +x, +y or +z (and fixed joints).
// 0, or -1 if a joint is of another kind.
static inline int arm_chain_to_csv(const ik_chain *chain, csv_chain *out)
{
    ik_xform o0 = chain->joints[0].origin;
    int i, k;
    out->count = out->dof = 0;
    if (o0.pos.x != 0 || o0.pos.y != 0 || o0.pos.z != 0 || o0.rot.w != 1) {
        csv_segment *g = &out->seg[out->count++];
        g->axis = -1;
        g->lo = g->hi = 0;
        arm__xform_to_seg(o0, g);
    }
    for (i = 0; i < chain->joint_count; i++) {
        const ik_joint *j = &chain->joints[i];
        csv_segment *g = &out->seg[out->count++];
        g->axis = -1;
        g->lo = g->hi = 0;
        if (j->type == IK_JOINT_REVOLUTE) {
            for (k = 0; k < 3; k++) {
                ik_real want[3] = { 0, 0, 0 };
                want[k] = 1;
                if (j->axis.x == want[0] && j->axis.y == want[1] && j->axis.z == want[2])
                    g->axis = k;
            }
            if (g->axis < 0)
                return -1;
            g->lo = (double)j->lo;
            g->hi = (double)j->hi;
            out->dof++;
        } else if (j->type != IK_JOINT_FIXED) {
            return -1;
        }
        arm__xform_to_seg(i + 1 < chain->joint_count ? chain->joints[i + 1].origin : chain->tip, g);
    }
    return 0;
}

// An ik.h chain from segments: joints[] gets one joint per moving segment (fixed segments fold
// into the next joint's origin). The chain points at joints.
static inline ik_chain arm_chain_from_csv(const csv_chain *c, ik_joint *joints)
{
    ik_xform acc = ik_xform_identity();
    int i, n = 0;
    for (i = 0; i < c->count; i++) {
        const csv_segment *g = &c->seg[i];
        if (g->axis >= 0) {
            joints[n] =
                ik_joint_revolute(acc, ik_vec3_make(g->axis == 0, g->axis == 1, g->axis == 2));
            joints[n].lo = (ik_real)g->lo;
            joints[n].hi = (ik_real)g->hi;
            n++;
            acc = arm__seg_to_xform(g);
        } else {
            acc = ik_xform_mul(acc, arm__seg_to_xform(g));
        }
    }
    return ik_chain_make(joints, n, acc);
}

#endif // IK_BENCH_ARM_CHAIN_H
