/* Fuzz target: ik_svd, ik_svd_scratch_size, ik_svd_pinv, ik_svd_damped_pinv. On success the
   decomposition is checked (s sorted and >= 0, U and V with orthonormal columns, U S V^T = A to
   rounding relative to s_max) and the pseudo-inverses are finite; on error nothing is written. */
#include "fuzz.h"

#define FZ_SVD_MAX 8

#ifdef IK_USE_FLOAT
#define FZ_SVD_TOL 1e-4
#else
#define FZ_SVD_TOL 1e-10
#endif

static void check_svd(const ik_real *a, int m, int n, const ik_real *u, const ik_real *s,
                      const ik_real *v)
{
    int k = m < n ? m : n, i, j, c;
    double smax = (double)s[0], amax = 0;
    for (i = 0; i < m * n; i++)
        amax = fabs((double)a[i]) > amax ? fabs((double)a[i]) : amax;
    for (i = 0; i < k; i++) {
        FZ_CHECK(s[i] >= 0);
        if (i > 0)
            FZ_CHECK(s[i] <= s[i - 1]);
    }
    // orthonormal columns
    for (i = 0; i < k; i++)
        for (j = 0; j < k; j++) {
            double du = 0, dv = 0, want = i == j ? 1 : 0;
            for (c = 0; c < m; c++)
                du += (double)u[c * k + i] * (double)u[c * k + j];
            for (c = 0; c < n; c++)
                dv += (double)v[c * k + i] * (double)v[c * k + j];
            FZ_CHECK(fabs(du - want) < FZ_SVD_TOL * 100 && fabs(dv - want) < FZ_SVD_TOL * 100);
        }
    // reconstruction, relative to the largest entry (a matrix of denormals is all rounding)
    if (amax > 1e-30)
        for (i = 0; i < m; i++)
            for (j = 0; j < n; j++) {
                double sum = 0;
                for (c = 0; c < k; c++)
                    sum += (double)u[i * k + c] * (double)s[c] * (double)v[j * k + c];
                FZ_CHECK(fabs(sum - (double)a[i * n + j]) <= FZ_SVD_TOL * 100 * (smax + amax));
            }
}

FUZZ_TARGET(svd)
{
    fz f = fz_begin(data, size);
    ik_real a[FZ_SVD_MAX * FZ_SVD_MAX], u[FZ_SVD_MAX * FZ_SVD_MAX], s[FZ_SVD_MAX];
    ik_real v[FZ_SVD_MAX * FZ_SVD_MAX], pinv[FZ_SVD_MAX * FZ_SVD_MAX];
    static unsigned char scratch_buf[4096 + 16];
    int m = 1 + fz_u8(&f) % FZ_SVD_MAX, n = 1 + fz_u8(&f) % FZ_SVD_MAX, cm = m, cn = n;
    int i, a_bad, dims_bad = 0, null_a = fz_chance(&f, 6), null_out = fz_chance(&f, 8);
    uint8_t shape = fz_u8(&f);
    double row_scale = 1;
    ik_result r;
    switch (fz_u8(&f) % 8) {
    case 0: row_scale = 1e-20; break;
    case 1: row_scale = 1e10; break;
    case 2: row_scale = 1e-300; break; // denormal or zero in float
    default: break;
    }
    for (i = 0; i < m * n; i++)
        a[i] = fz_real(&f, 1);
    // structure: duplicate rows, a zero column, a scaled row (rank loss, near singularity)
    if (shape % 4 == 1 && m > 1)
        for (i = 0; i < n; i++)
            a[n + i] = a[i];
    if (shape % 4 == 2)
        for (i = 0; i < m; i++)
            a[i * n] = 0;
    for (i = 0; i < n; i++)
        a[i] = fz_from_double((double)a[i] * row_scale);
    a_bad = 0; // from the final values: the structure step may overwrite a bad one
    for (i = 0; i < m * n; i++)
        if (!fz_finite(a[i]) || fabs((double)a[i]) > (double)IK_MAX_MAGNITUDE)
            a_bad = 1;
    if (shape >= 248) {
        // counts out of range; never larger than the buffers when they pass validation
        static const int bad[8][2] = { { 0, 3 },          { 3, 0 },
                                       { -1, 2 },         { 2, -5 },
                                       { 600, 600 },      { 1, 300000 },
                                       { 2147483647, 2 }, { -2147483647 - 1, -1 } };
        cm = bad[shape - 248][0];
        cn = bad[shape - 248][1];
        dims_bad = 1;
    }

    memset(u, FZ_FILL, sizeof u);
    memset(s, FZ_FILL, sizeof s);
    memset(v, FZ_FILL, sizeof v);
    r = ik_svd(null_a ? NULL : a, cm, cn, u, null_out ? NULL : s, v);
    if (r == IK_OK) {
        int k = m < n ? m : n;
        FZ_CHECK(!a_bad && !dims_bad && !null_a && !null_out);
        FZ_CHECK(fz_all_finite(u, m * k) && fz_all_finite(s, k) && fz_all_finite(v, n * k));
        check_svd(a, m, n, u, s, v);
    } else {
        FZ_CHECK(fz_untouched(u, sizeof u) && fz_untouched(s, sizeof s) &&
                 fz_untouched(v, sizeof v));
        FZ_CHECK(r == IK_ERR_NULL_ARG ? (null_a || null_out)
                                      : (r == IK_ERR_BAD_ARG && (a_bad || dims_bad)));
    }

    {
        size_t need = ik_svd_scratch_size(cm, cn), have = need;
        unsigned char *scratch = scratch_buf + fz_u8(&f) % 8; // any alignment
        int null_scratch = fz_chance(&f, 6), short_scratch = 0, damped = fz_u8(&f) & 1;
        ik_real param;
        int param_bad;
        FZ_CHECK(dims_bad ? need == 0 : need > 0 && need <= 4096);
        if (fz_chance(&f, 24)) {
            have = need - (size_t)fz_int(&f, 1, 16);
            short_scratch = 1;
            if (have > need) // wrapped below zero
                have = 0;
        }
        f.tainted = 0;
        param = fz_chance(&f, 64) ? fz_real(&f, 1) : damped ? IK_R(0.01) : IK_R(1e-9);
        param_bad = f.tainted || (damped ? !(param >= 0 && param <= IK_MAX_MAGNITUDE)
                                         : !(param >= 0 && param < 1));
        memset(pinv, FZ_FILL, sizeof pinv);
        if (damped)
            r = ik_svd_damped_pinv(null_a ? NULL : a, cm, cn, param, null_out ? NULL : pinv,
                                   null_scratch ? NULL : scratch, have);
        else
            r = ik_svd_pinv(null_a ? NULL : a, cm, cn, param, null_out ? NULL : pinv,
                            null_scratch ? NULL : scratch, have);
        if (r == IK_OK) {
            FZ_CHECK(!a_bad && !dims_bad && !null_a && !null_out && !null_scratch && !param_bad &&
                     !short_scratch);
            FZ_CHECK(fz_all_finite(pinv, m * n));
            FZ_CHECK(fz_untouched(pinv + m * n, sizeof pinv - sizeof(ik_real) * (size_t)(m * n)));
        } else {
            FZ_CHECK(fz_untouched(pinv, sizeof pinv));
            switch (r) {
            case IK_ERR_NULL_ARG: FZ_CHECK(null_a || null_out || null_scratch); break;
            case IK_ERR_BAD_ARG: FZ_CHECK(a_bad || dims_bad || param_bad); break;
            case IK_ERR_SCRATCH_TOO_SMALL: FZ_CHECK(short_scratch); break;
            case IK_ERR_NUMERIC: FZ_CHECK(!a_bad); break; // documented: a matrix of subnormals
            default: FZ_CHECK(0);
            }
        }
    }
    return 0;
}
