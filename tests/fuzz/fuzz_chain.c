/* Fuzz target: the chain model. ik_chain_validate, ik_chain_dof, ik_chain_state_index,
   ik_chain_fk, ik_chain_jacobian, ik_joint_from_urdf, ik_joints_from_dh. */
#include "fuzz.h"

static void fuzz_fk_jacobian(fz *f, const ik_chain *ch, int chain_bad, int null_joints)
{
    ik_real q[FZ_MAX_DOF], q0[FZ_MAX_DOF], jac[6 * FZ_MAX_DOF];
    ik_xform frames[FZ_MAX_JOINTS], eff;
    int dof = fz_chain_dof(ch), i, rows, q_bad, null_q = fz_chance(f, 8);
    int null_eff = fz_chance(f, 16), null_frames = fz_chance(f, 32);
    ik_result r;
    f->tainted = 0;
    for (i = 0; i < dof; i++)
        q[i] = fz_real(f, 4);
    q_bad = f->tainted;
    for (; i < FZ_MAX_DOF; i++)
        q[i] = 0;
    memcpy(q0, q, sizeof q);

    memset(frames, FZ_FILL, sizeof frames);
    memset(&eff, FZ_FILL, sizeof eff);
    r = ik_chain_fk(ch, null_q ? NULL : q, null_frames ? NULL : frames, null_eff ? NULL : &eff);
    FZ_CHECK(memcmp(q, q0, sizeof q) == 0);
    if (r == IK_OK) {
        FZ_CHECK(!chain_bad && !null_joints && !null_q && !q_bad);
        if (!null_eff)
            FZ_CHECK(fz_xform_finite(eff) && ik_quat_is_unit(eff.rot, IK_R(1e-3)));
        if (!null_frames)
            for (i = 0; i < ch->joint_count; i++)
                FZ_CHECK(fz_xform_finite(frames[i]));
    } else {
        FZ_CHECK(fz_untouched(frames, sizeof frames) && fz_untouched(&eff, sizeof eff));
        FZ_CHECK(r == IK_ERR_NULL_ARG || r == IK_ERR_BAD_ARG);
        if (r == IK_ERR_NULL_ARG)
            FZ_CHECK(null_joints || null_q);
        else
            FZ_CHECK(chain_bad || q_bad);
        FZ_CHECK(chain_bad || null_joints || null_q || q_bad);
    }

    rows = fz_chance(f, 16) ? fz_int(f, -2, 8) : (fz_u8(f) & 1 ? 6 : 3);
    memset(jac, FZ_FILL, sizeof jac);
    memset(&eff, FZ_FILL, sizeof eff);
    null_eff = fz_chance(f, 16);
    {
        int null_jac = fz_chance(f, 8);
        r = ik_chain_jacobian(ch, null_q ? NULL : q, rows, null_jac ? NULL : jac,
                              null_eff ? NULL : &eff);
        FZ_CHECK(memcmp(q, q0, sizeof q) == 0);
        if (r == IK_OK) {
            FZ_CHECK(!chain_bad && !null_joints && !null_q && !q_bad && !null_jac);
            FZ_CHECK(rows == 3 || rows == 6);
            FZ_CHECK(fz_all_finite(jac, rows * dof));
            FZ_CHECK(fz_untouched(jac + rows * dof, sizeof jac - sizeof(ik_real) * rows * dof));
            if (!null_eff)
                FZ_CHECK(fz_xform_finite(eff));
        } else {
            FZ_CHECK(fz_untouched(jac, sizeof jac) && fz_untouched(&eff, sizeof eff));
            FZ_CHECK(r == IK_ERR_NULL_ARG || r == IK_ERR_BAD_ARG);
            if (r == IK_ERR_NULL_ARG)
                FZ_CHECK(null_joints || null_q || null_jac);
            else
                FZ_CHECK(chain_bad || q_bad || (rows != 3 && rows != 6));
        }
    }
}

static void fuzz_urdf(fz *f)
{
    ik_joint out;
    ik_joint_type type;
    ik_vec3 xyz, rpy, axis;
    ik_real lo, hi;
    int null_out = fz_chance(f, 8), bad;
    uint8_t t = fz_u8(f);
    ik_result r;
    f->tainted = 0;
    type = (ik_joint_type)(t % 3);
    xyz = fz_vec3(f, 2);
    rpy = fz_vec3(f, 4);
    axis = fz_chance(f, 32) ? ik_vec3_zero() : fz_vec3(f, 1);
    fz_limits(f, &lo, &hi);
    bad = f->tainted;
    if (t >= 240) {
        type = t >= 250 ? IK_JOINT_BALL : (ik_joint_type)(t - 236); // ball or not a type
        bad = 1;
    }
    if (type != IK_JOINT_FIXED && ik_vec3_length2(ik_vec3_normalize(axis)) == 0)
        bad = 1;
    memset(&out, FZ_FILL, sizeof out);
    r = ik_joint_from_urdf(type, xyz, rpy, axis, lo, hi, null_out ? NULL : &out);
    if (r == IK_OK) {
        ik_joint one[1];
        ik_chain ch;
        FZ_CHECK(!null_out);
        // the joint it makes is valid, alone in a chain
        one[0] = out;
        ch = ik_chain_make(one, 1, ik_xform_identity());
        FZ_CHECK(ik_chain_validate(&ch) == IK_OK);
        FZ_CHECK(out.type == type && out.lo == lo && out.hi == hi);
    } else {
        FZ_CHECK(fz_untouched(&out, sizeof out));
        FZ_CHECK(r == (null_out ? IK_ERR_NULL_ARG : IK_ERR_BAD_ARG));
        FZ_CHECK(null_out || bad);
    }
    // whatever the axis and xyz, if it is accepted, no non-finite value ends up in the joint
    (void)bad;
}

static void fuzz_dh(fz *f)
{
    ik_dh_row rows[FZ_MAX_JOINTS];
    ik_joint out[FZ_MAX_JOINTS];
    ik_xform tip;
    uint8_t c = fz_u8(f);
    int n = 1 + c % FZ_MAX_JOINTS, count = n, i, bad, conv = fz_u8(f) % 2;
    int null_rows = fz_chance(f, 6), null_out = fz_chance(f, 6), null_tip = fz_chance(f, 6);
    ik_result r;
    f->tainted = 0;
    for (i = 0; i < n; i++) {
        uint8_t t = fz_u8(f);
        rows[i].type = (ik_joint_type)(t % 3);
        if (t >= 250) {
            rows[i].type = t >= 253 ? IK_JOINT_BALL : (ik_joint_type)9;
            f->tainted = 1;
        }
        rows[i].a = fz_real(f, 1);
        rows[i].alpha = fz_real(f, 2);
        rows[i].d = fz_real(f, 1);
        rows[i].theta = fz_real(f, 2);
        fz_limits(f, &rows[i].lo, &rows[i].hi);
    }
    if (c >= 250) {
        count = c == 250 ? 0 : c == 251 ? -1 : IK_MAX_JOINTS + 1;
        f->tainted = 1;
    }
    if (fz_chance(f, 6)) {
        conv = fz_chance(f, 128) ? -1 : 2;
        f->tainted = 1;
    }
    bad = f->tainted;
    memset(out, FZ_FILL, sizeof out);
    memset(&tip, FZ_FILL, sizeof tip);
    r = ik_joints_from_dh(null_rows ? NULL : rows, count, (ik_dh_convention)conv,
                          null_out ? NULL : out, null_tip ? NULL : &tip);
    if (r == IK_OK) {
        ik_chain ch = ik_chain_make(out, n, tip);
        FZ_CHECK(!null_rows && !null_out && !null_tip && !bad);
        FZ_CHECK(ik_chain_validate(&ch) == IK_OK);
        FZ_CHECK(fz_untouched(out + n, sizeof out - sizeof out[0] * (size_t)n));
    } else {
        FZ_CHECK(fz_untouched(out, sizeof out) && fz_untouched(&tip, sizeof tip));
        FZ_CHECK(r == IK_ERR_NULL_ARG || r == IK_ERR_BAD_ARG);
        FZ_CHECK(r == IK_ERR_NULL_ARG ? (null_rows || null_out || null_tip) : bad);
    }
}

FUZZ_TARGET(chain)
{
    fz f = fz_begin(data, size);
    ik_joint joints[FZ_MAX_JOINTS];
    int null_joints, chain_bad, dof, i;
    uint8_t what = fz_u8(&f);
    ik_chain ch;
    ik_result v;
    if (what % 4 == 1) {
        fuzz_urdf(&f);
        return 0;
    }
    if (what % 4 == 2) {
        fuzz_dh(&f);
        return 0;
    }
    ch = fz_chain(&f, joints, 2, &null_joints);
    chain_bad = f.tainted;
    v = ik_chain_validate(fz_chance(&f, 4) ? NULL : &ch);
    FZ_CHECK(v == IK_OK || v == IK_ERR_NULL_ARG || v == IK_ERR_BAD_ARG);
    if (v == IK_OK) {
        FZ_CHECK(!chain_bad && !null_joints);
        dof = fz_chain_dof(&ch);
        FZ_CHECK(ik_chain_dof(&ch) == dof);
        for (i = -1; i <= ch.joint_count; i++) {
            int k = ik_chain_state_index(&ch, i);
            FZ_CHECK(i < 0 || i >= ch.joint_count ? k == -1 : (k >= 0 && k <= dof));
        }
    } else if (v == IK_ERR_BAD_ARG) {
        FZ_CHECK(chain_bad);
        FZ_CHECK(ik_chain_dof(&ch) == -1 && ik_chain_state_index(&ch, 0) == -1);
    } else if (!null_joints) {
        // NULL came from the NULL chain pointer: validate the real chain too
        v = ik_chain_validate(&ch);
        FZ_CHECK(v == IK_OK ? !chain_bad : (v == IK_ERR_BAD_ARG && chain_bad));
    }
    FZ_CHECK(ik_chain_validate(&ch) != IK_OK || !chain_bad);
    fuzz_fk_jacobian(&f, &ch, chain_bad, null_joints);
    return 0;
}
