/* SVD and pseudo-inverses: ik_svd, ik_svd_scratch_size, ik_svd_pinv, ik_svd_damped_pinv.
   Every property is checked in double from the library's ik_real results: U S V^T = A, U and V
   orthonormal, s sorted and non-negative, the four Moore-Penrose conditions, the damped
   pseudo-inverse against its closed form, on every shape up to 6 x 64 (and some taller or larger
   ones) with random, rank-deficient, zero, badly scaled, tiny and huge matrices; then the error
   paths (outputs byte-for-byte untouched) and the scratch contract. */
#include "test.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define SV_MAXD  64                  // largest m or n of the matrices below
#define SV_MAXE  (SV_MAXD * SV_MAXD) // room for any m x n, m x m or n x n matrix of them
#define SV_GUARD 16                  // sentinel elements after each output: must stay untouched

// Relative backward error asked of the SVD (|A - U S V^T|_F / |A|_F) and of the normalised
// Moore-Penrose residuals: ~4500 ulps in double; in float 84 ulps, which covers the sqrt(n) eps
// growth of a length-64 dot product (8 eps) times the rotations of a few Jacobi sweeps.
#define SV_TOL TOL(1e-12, 1e-5)
// Orthonormality (largest entry of U^T U - I, V^T V - I): dot products of <= 64 terms.
#define SV_ORTHO TOL(1e-13, 1e-5)
// rcond for the matrices that are rank-deficient by construction: far above the noise level of
// their zero singular values (~ eps |A|), far below their smallest non-zero one.
#define SV_RCOND TOL(1e-12, 1e-5)

// Tiny entries whose squares underflow (the implementation must scale), huge ones (below
// IK_MAX_MAGNITUDE), and a subnormal with enough bits left for a relative check.
#ifdef IK_USE_FLOAT
#define SV_TINY      1e-25 // squares 1e-50 underflow in float as 1e-400 does in double
#define SV_SUBNORMAL 1e-39 // float subnormal, ulp 1.4e-45: 1.4e-6 relative
#else
#define SV_TINY      1e-200
#define SV_SUBNORMAL 1e-310 // double subnormal, ulp 4.9e-324: 5e-14 relative
#endif
#define SV_HUGE 1e11
// Ratio between the columns of a graded matrix: the square of g^3 underflows.
#ifdef IK_USE_FLOAT
#define SV_GRADE 1e-8
#else
#define SV_GRADE 1e-60
#endif

// Largest m * n ik_svd() accepts (IK_MAX_JOINTS * 64).
#define SV_MAX_ELEMS ((long)IK_MAX_JOINTS * 64)

typedef struct sv_work {
    ik_real a[SV_MAXE], a0[SV_MAXE], u[SV_MAXE + SV_GUARD], s[SV_MAXD + SV_GUARD];
    ik_real v[SV_MAXE + SV_GUARD], x[SV_MAXE + SV_GUARD];
    double ad[SV_MAXE], ud[SV_MAXE], sd[SV_MAXD], vd[SV_MAXE], xd[SV_MAXE], x0d[SV_MAXE];
    double t1[SV_MAXE], t2[SV_MAXE], t3[SV_MAXE], ref[SV_MAXE];
    double gram[SV_MAXE], rhs[SV_MAXE], scaled[SV_MAXE], ngram[SV_MAXE], nscaled[SV_MAXE];
    int explicit_checked; // full-rank matrices whose pinv was compared with the closed form
    int damped0_checked;  // full-rank matrices whose damping-0 result was compared with pinv
} sv_work;

// ---- helpers (all in double) -------------------------------------------------------------------

// max |x_i|; NaN if any x_i is NaN, so that every check on a poisoned result fails.
static double sv_maxabs(const double *x, int count)
{
    double mx = 0;
    int i;
    for (i = 0; i < count; i++) {
        double t = fabs(x[i]);
        if (test_isnan(t))
            return t;
        if (t > mx)
            mx = t;
    }
    return mx;
}

// Frobenius norm, scaled by max |x_i| so that 1e-200 entries do not underflow.
static double sv_fro(const double *x, int count)
{
    double mx = sv_maxabs(x, count), sum = 0;
    int i;
    if (mx == 0 || !test_finite(mx))
        return mx;
    if (1 / mx <= DBL_MAX) { // (not for a subnormal mx)
        double inv = 1 / mx;
        for (i = 0; i < count; i++) {
            double t = x[i] * inv;
            sum += t * t;
        }
    } else {
        for (i = 0; i < count; i++) {
            double t = x[i] / mx;
            sum += t * t;
        }
    }
    return mx * sqrt(sum);
}

// Frobenius norm of x - y.
static double sv_fro_diff(const double *x, const double *y, double *tmp, int count)
{
    int i;
    for (i = 0; i < count; i++)
        tmp[i] = x[i] - y[i];
    return sv_fro(tmp, count);
}

static void sv_to_double(const ik_real *x, double *y, int count)
{
    int i;
    for (i = 0; i < count; i++)
        y[i] = (double)x[i];
}

static void sv_store(const double *x, ik_real *y, int count)
{
    int i;
    for (i = 0; i < count; i++)
        y[i] = (ik_real)x[i];
}

static int sv_finite(const ik_real *x, int count)
{
    int i;
    for (i = 0; i < count; i++) {
        double t = (double)x[i];
        if (!test_finite(t))
            return 0;
    }
    return 1;
}

// true if all bytes of p are the sentinel byte.
static int sv_is_pattern(const void *p, size_t bytes, unsigned char pattern)
{
    const unsigned char *c = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < bytes; i++)
        if (c[i] != pattern)
            return 0;
    return 1;
}

// c (m x n) = a (m x k) * b (k x n), row-major.
static void sv_mul(const double *a, const double *b, double *c, int m, int k, int n)
{
    int i, j, l;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
            double sum = 0;
            for (l = 0; l < k; l++)
                sum += a[i * k + l] * b[l * n + j];
            c[i * n + j] = sum;
        }
}

// t (n x m) = a^T, a m x n.
static void sv_transpose(const double *a, double *t, int m, int n)
{
    int i, j;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++)
            t[j * m + i] = a[i * n + j];
}

// Largest singular value of the m x n matrix a (min(m, n) <= SV_MAXD): power iteration on the
// Gram matrix of its smaller side, scaled by max |a|. The Rayleigh quotient never exceeds the
// true value, so where this is a denominator the check errs on the strict side.
static double sv_norm2(sv_work *w, const double *a, int m, int n)
{
    int p = m <= n ? m : n, i, j, l, it;
    double mx = sv_maxabs(a, m * n), v[SV_MAXD], y[SV_MAXD], rq = 0;
    double *g = w->ngram, *b = w->nscaled;
    if (mx == 0 || test_isnan(mx))
        return mx;
    for (i = 0; i < m * n; i++)
        b[i] = a[i] / mx;
    for (i = 0; i < p; i++)
        for (j = 0; j <= i; j++) {
            double sum = 0;
            if (m <= n)
                for (l = 0; l < n; l++)
                    sum += b[i * n + l] * b[j * n + l];
            else
                for (l = 0; l < m; l++)
                    sum += b[l * n + i] * b[l * n + j];
            g[i * p + j] = g[j * p + i] = sum;
        }
    for (i = 0; i < p; i++)
        v[i] = 1.0 + 0.5 * sin(1.0 + 1.7 * i);
    for (it = 0; it < 500; it++) {
        double vv = 0, vy = 0, yy = 0, q;
        for (i = 0; i < p; i++) {
            double sum = 0;
            for (j = 0; j < p; j++)
                sum += g[i * p + j] * v[j];
            y[i] = sum;
            vv += v[i] * v[i];
            vy += v[i] * sum;
            yy += sum * sum;
        }
        q = vy / vv;
        yy = sqrt(yy);
        for (i = 0; i < p; i++)
            v[i] = y[i] / yy;
        if (it > 3 && fabs(q - rq) <= 1e-14 * q) {
            rq = q;
            break;
        }
        rq = q;
    }
    return mx * sqrt(rq);
}

// Solves G X = B (G p x p, B p x r, row-major) by Gaussian elimination with partial pivoting,
// overwriting G, and B with X. Returns 0 if G is singular.
static int sv_solve(double *g, double *b, int p, int r)
{
    int i, j, c;
    for (c = 0; c < p; c++) {
        int piv = c;
        for (i = c + 1; i < p; i++)
            if (fabs(g[i * p + c]) > fabs(g[piv * p + c]))
                piv = i;
        if (g[piv * p + c] == 0)
            return 0;
        if (piv != c) {
            for (j = 0; j < p; j++) {
                double t = g[c * p + j];
                g[c * p + j] = g[piv * p + j];
                g[piv * p + j] = t;
            }
            for (j = 0; j < r; j++) {
                double t = b[c * r + j];
                b[c * r + j] = b[piv * r + j];
                b[piv * r + j] = t;
            }
        }
        for (i = c + 1; i < p; i++) {
            double f = g[i * p + c] / g[c * p + c];
            for (j = c; j < p; j++)
                g[i * p + j] -= f * g[c * p + j];
            for (j = 0; j < r; j++)
                b[i * r + j] -= f * b[c * r + j];
        }
    }
    for (c = p - 1; c >= 0; c--)
        for (j = 0; j < r; j++) {
            double sum = b[c * r + j];
            for (i = c + 1; i < p; i++)
                sum -= g[c * p + i] * b[i * r + j];
            b[c * r + j] = sum / g[c * p + c];
        }
    return 1;
}

// Closed form of the (damped) pseudo-inverse x (n x m) of the m x n matrix a: A^T (A A^T + d^2
// I)^-1 if m <= n, (A^T A + d^2 I)^-1 A^T if m > n (full rank needed when d = 0). Computed on
// B = A / max|A| (X(A, d) = X(B, d / max|A|) / max|A|) so that tiny entries do not underflow.
static int sv_ref_pinv(sv_work *w, const double *a, int m, int n, double d, double *x)
{
    double mx = sv_maxabs(a, m * n), ds;
    double *b = w->scaled, *g = w->gram, *y = w->rhs;
    int i, j, l;
    if (mx == 0) {
        for (i = 0; i < n * m; i++)
            x[i] = 0;
        return 1;
    }
    ds = d / mx;
    for (i = 0; i < m * n; i++)
        b[i] = a[i] / mx;
    if (m <= n) {
        for (i = 0; i < m; i++)
            for (j = 0; j < m; j++) {
                double sum = i == j ? ds * ds : 0;
                for (l = 0; l < n; l++)
                    sum += b[i * n + l] * b[j * n + l];
                g[i * m + j] = sum;
            }
        memcpy(y, b, (size_t)(m * n) * sizeof(double));
        if (!sv_solve(g, y, m, n)) // y = (B B^T + ds^2 I)^-1 B, x = y^T / mx
            return 0;
        for (i = 0; i < n; i++)
            for (j = 0; j < m; j++)
                x[i * m + j] = y[j * n + i] / mx;
    } else {
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++) {
                double sum = i == j ? ds * ds : 0;
                for (l = 0; l < m; l++)
                    sum += b[l * n + i] * b[l * n + j];
                g[i * n + j] = sum;
            }
        sv_transpose(b, y, m, n);
        if (!sv_solve(g, y, n, m)) // y = (B^T B + ds^2 I)^-1 B^T, x = y / mx
            return 0;
        for (i = 0; i < n * m; i++)
            x[i] = y[i] / mx;
    }
    return 1;
}

// Largest |Q^T Q - I| entry of the rows x k matrix q (row-major).
static double sv_orth_error(const double *q, int rows, int k)
{
    double worst = 0;
    int i, j, l;
    for (i = 0; i < k; i++)
        for (j = 0; j < k; j++) {
            double sum = i == j ? -1.0 : 0.0, e;
            for (l = 0; l < rows; l++)
                sum += q[l * k + i] * q[l * k + j];
            e = fabs(sum);
            if (test_isnan(e))
                return e;
            if (e > worst)
                worst = e;
        }
    return worst;
}

// The four Moore-Penrose conditions for x (n x m) of a (m x n), each residual normalised by the
// product of norms it is made of (|A|^2 |X|, |X|^2 |A|, |A| |X|): a backward-stable x (the exact
// pseudo-inverse of A + E, |E| ~ eps |A|) meets them to ~eps whatever the condition number.
// na = |A|_2; returns |X|_2.
static double sv_check_mp(sv_work *w, const double *a, double na, const double *x, int m, int n)
{
    double nx = sv_norm2(w, x, n, m), c = na * nx, r;
    int i;
    CHECK(na > 0 && nx > 0);
    if (!(na > 0 && nx > 0))
        return nx;
    sv_mul(a, x, w->t1, m, n, m); // A X, m x m
    sv_mul(x, a, w->t2, n, m, n); // X A, n x n
    sv_mul(w->t1, a, w->t3, m, m, n);
    for (i = 0; i < m * n; i++)
        w->t3[i] -= a[i];
    r = sv_fro(w->t3, m * n) / na / c; // A X A = A
    CHECK_NEAR(r, 0, SV_TOL);
    sv_mul(x, w->t1, w->t3, n, m, m);
    for (i = 0; i < n * m; i++)
        w->t3[i] -= x[i];
    r = sv_fro(w->t3, n * m) / nx / c; // X A X = X
    CHECK_NEAR(r, 0, SV_TOL);
    sv_transpose(w->t1, w->t3, m, m);
    r = sv_fro_diff(w->t1, w->t3, w->ref, m * m) / c; // (A X)^T = A X
    CHECK_NEAR(r, 0, SV_TOL);
    sv_transpose(w->t2, w->t3, n, n);
    r = sv_fro_diff(w->t2, w->t3, w->ref, n * n) / c; // (X A)^T = X A
    CHECK_NEAR(r, 0, SV_TOL);
    return nx;
}

// ---- one matrix through everything -------------------------------------------------------------

// w->a holds the m x n matrix. rank: its exact rank when known by construction, else -1. full:
// full rank (rcond 0 is meaningful). rcond: the cut-off for its pseudo-inverse.
static void sv_check_body(sv_work *w, int m, int n, int rank, int full, double rcond)
{
    int k = m < n ? m : n, i, j, l, t;
    size_t ss = ik_svd_scratch_size(m, n);
    void *scratch;
    double fa, na, lams[3];
    ik_result r;

    sv_to_double(w->a, w->ad, m * n);
    memcpy(w->a0, w->a, (size_t)(m * n) * sizeof(ik_real));
    fa = sv_fro(w->ad, m * n);
    na = sv_norm2(w, w->ad, m, n);

    // ik_svd: outputs filled with a sentinel so writes past U[m k], s[k], V[n k] show
    memset(w->u, 0xA5, (size_t)(m * k + SV_GUARD) * sizeof(ik_real));
    memset(w->s, 0xA5, (size_t)(k + SV_GUARD) * sizeof(ik_real));
    memset(w->v, 0xA5, (size_t)(n * k + SV_GUARD) * sizeof(ik_real));
    r = ik_svd(w->a, m, n, w->u, w->s, w->v);
    CHECK(r == IK_OK);
    if (r != IK_OK)
        return;
    CHECK(memcmp(w->a, w->a0, (size_t)(m * n) * sizeof(ik_real)) == 0);
    CHECK(sv_is_pattern(w->u + m * k, SV_GUARD * sizeof(ik_real), 0xA5));
    CHECK(sv_is_pattern(w->s + k, SV_GUARD * sizeof(ik_real), 0xA5));
    CHECK(sv_is_pattern(w->v + n * k, SV_GUARD * sizeof(ik_real), 0xA5));
    CHECK(sv_finite(w->u, m * k) && sv_finite(w->s, k) && sv_finite(w->v, n * k));
    sv_to_double(w->u, w->ud, m * k);
    sv_to_double(w->s, w->sd, k);
    sv_to_double(w->v, w->vd, n * k);

    // s non-negative, sorted descending
    t = 1;
    for (i = 0; i < k; i++)
        if (!(w->sd[i] >= 0) || (i > 0 && !(w->sd[i - 1] >= w->sd[i])))
            t = 0;
    CHECK(t);

    // U diag(s) V^T = A
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
            double sum = w->ad[i * n + j];
            for (l = 0; l < k; l++)
                sum -= w->ud[i * k + l] * w->sd[l] * w->vd[j * k + l];
            w->t1[i * n + j] = sum;
        }
    if (fa > 0)
        CHECK_NEAR(sv_fro(w->t1, m * n) / fa, 0, SV_TOL);
    else
        CHECK(sv_maxabs(w->t1, m * n) == 0);

    // U^T U = I_k, V^T V = I_k, also where s = 0 (completed)
    CHECK_NEAR(sv_orth_error(w->ud, m, k), 0, SV_ORTHO);
    CHECK_NEAR(sv_orth_error(w->vd, n, k), 0, SV_ORTHO);

    // rank-revealing: exactly rank singular values above the noise
    if (rank == 0) {
        CHECK(sv_maxabs(w->sd, k) == 0);
    } else if (rank > 0) {
        CHECK(w->sd[rank - 1] > SV_RCOND * w->sd[0]);
        if (rank < k)
            CHECK_NEAR(w->sd[rank] / w->sd[0], 0, SV_RCOND);
    }

    // largest singular value = |A|_2 (power iteration: converged to far better than this)
    // (a cross-check of the test's own norm: power iteration converges slowly when s1 ~ s2)
    if (na > 0)
        CHECK_NEAR(w->sd[0] / na, 1, 1e-3);

    CHECK(ss > 0);
    scratch = malloc(ss > 0 ? ss : 1); // exactly the size asked for: ASan sees any overrun
    if (!scratch)
        return;

    // pinv at rcond, and at 0 (keep every non-zero singular value); Moore-Penrose conditions
    for (t = 0; t < 2; t++) {
        double rc = t == 0 ? 0 : rcond, nx;
        if (t == 1 && rcond == 0)
            break;
        memset(w->x, 0xA5, (size_t)(n * m + SV_GUARD) * sizeof(ik_real));
        r = ik_svd_pinv(w->a, m, n, (ik_real)rc, w->x, scratch, ss);
        CHECK(r == IK_OK);
        if (r != IK_OK)
            continue;
        CHECK(memcmp(w->a, w->a0, (size_t)(m * n) * sizeof(ik_real)) == 0);
        CHECK(sv_is_pattern(w->x + n * m, SV_GUARD * sizeof(ik_real), 0xA5));
        CHECK(sv_finite(w->x, n * m));
        sv_to_double(w->x, w->xd, n * m);
        if (t == 0)
            memcpy(w->x0d, w->xd, (size_t)(n * m) * sizeof(double));
        if (fa == 0) {
            CHECK(sv_maxabs(w->xd, n * m) == 0); // pinv(0) = 0
            continue;
        }
        nx = sv_check_mp(w, w->ad, na, w->xd, m, n);
        if (t == 1 && rank > 0) {
            // A X is the orthogonal projector on the kept rank-r range: trace r. |trace(E X)| <=
            // m |E| |X| with E the backward error.
            double tr = 0;
            sv_mul(w->ad, w->xd, w->t1, m, n, m);
            for (i = 0; i < m; i++)
                tr += w->t1[i * m + i];
            CHECK_NEAR(tr, rank, m * SV_TOL * na * nx);
        }
        if (t == 0 && full) {
            // the closed form A^T (A A^T)^-1 or (A^T A)^-1 A^T, computed here in double from
            // the normal equations (error ~ kappa^2 eps_double): only where kappa <= 100. The
            // pinv's forward error is ~ kappa times its backward error.
            double kappa = w->sd[k - 1] > 0 ? w->sd[0] / w->sd[k - 1] : HUGE_VAL;
            if (kappa <= 100 && sv_ref_pinv(w, w->ad, m, n, 0, w->ref)) {
                w->explicit_checked++;
                CHECK_NEAR(sv_fro_diff(w->xd, w->ref, w->t3, n * m) / sv_fro(w->ref, n * m), 0,
                           SV_TOL * kappa);
            }
        }
    }

    // damped pseudo-inverse against A^T (A A^T + d^2 I)^-1 (or the tall form); its norm is at
    // most 1/(2d) and shrinks as d grows. Tolerance: dX/dA is O(1/d^2) and |X| >= |A| / (|A|^2
    // + d^2), so a backward error eps |A| moves X by eps (1 + |A|^2/d^2) relative.
    if (na > 0) {
        // damping is an input too: at most IK_MAX_MAGNITUDE
        double base = na <= (double)IK_MAX_MAGNITUDE / 10 ? na : (double)IK_MAX_MAGNITUDE / 10;
        lams[0] = 0.3 * base;
        lams[1] = base;
        lams[2] = 10 * base;
    } else {
        lams[0] = 0.5;
        lams[1] = 1;
        lams[2] = 10;
    }
    {
        double prev = HUGE_VAL;
        for (t = 0; t < 3; t++) {
            ik_real lr = (ik_real)lams[t];
            double ld = (double)lr, fx, fr, nx, q = na / ld;
            memset(w->x, 0xA5, (size_t)(n * m + SV_GUARD) * sizeof(ik_real));
            r = ik_svd_damped_pinv(w->a, m, n, lr, w->x, scratch, ss);
            CHECK(r == IK_OK);
            if (r != IK_OK)
                continue;
            CHECK(memcmp(w->a, w->a0, (size_t)(m * n) * sizeof(ik_real)) == 0);
            CHECK(sv_is_pattern(w->x + n * m, SV_GUARD * sizeof(ik_real), 0xA5));
            CHECK(sv_finite(w->x, n * m));
            sv_to_double(w->x, w->xd, n * m);
            fx = sv_fro(w->xd, n * m);
            CHECK(sv_ref_pinv(w, w->ad, m, n, ld, w->ref));
            fr = sv_fro(w->ref, n * m);
            if (fr == 0) {
                CHECK(fx == 0);
                continue;
            }
            CHECK_NEAR(sv_fro_diff(w->xd, w->ref, w->t3, n * m) / fr, 0, SV_TOL * (1 + q * q));
            nx = sv_norm2(w, w->xd, n, m);
            CHECK(nx * (2 * ld) <= 1 + SV_TOL * (1 + q * q));
            CHECK(fx < prev);
            prev = fx;
        }
    }

    // damping 0 = pinv with rcond 0 for a full-rank matrix (also when s^2 underflows)
    if (full && fa > 0) {
        memset(w->x, 0xA5, (size_t)(n * m + SV_GUARD) * sizeof(ik_real));
        r = ik_svd_damped_pinv(w->a, m, n, 0, w->x, scratch, ss);
        CHECK(r == IK_OK);
        if (r == IK_OK) {
            w->damped0_checked++;
            CHECK(sv_finite(w->x, n * m));
            sv_to_double(w->x, w->xd, n * m);
            CHECK_NEAR(sv_fro_diff(w->xd, w->x0d, w->t3, n * m) / sv_fro(w->x0d, n * m), 0, SV_TOL);
        }
    }
    // the zero matrix: damping 0 gives 0
    if (fa == 0) {
        memset(w->x, 0xA5, (size_t)(n * m + SV_GUARD) * sizeof(ik_real));
        CHECK(ik_svd_damped_pinv(w->a, m, n, 0, w->x, scratch, ss) == IK_OK);
        sv_to_double(w->x, w->xd, n * m);
        CHECK(sv_maxabs(w->xd, n * m) == 0);
    }
    free(scratch);
}

static void sv_check(sv_work *w, int m, int n, int rank, int full, double rcond, const char *what)
{
    int before = ik_test_failed;
    sv_check_body(w, m, n, rank, full, rcond);
    if (ik_test_failed != before)
        printf("  case: %s, %d x %d\n", what, m, n);
}

// ---- matrix families ---------------------------------------------------------------------------

enum {
    SV_RANDOM,   // uniform entries in [-1, 1)
    SV_PRODUCT,  // (m x r)(r x n), r < min(m, n)
    SV_DUPCOL,   // last column = 2 * first, last row zero
    SV_DUPROW,   // last row = first, last column zero
    SV_COLSCALE, // random, column j scaled by 10^u, u uniform in [-6, 6]
    SV_TINYK,    // random * SV_TINY
    SV_HUGEK,    // random * 1e11
    SV_ZERO,     // all zero
    SV_KINDS
};
static const char *const sv_kind_names[SV_KINDS] = { "random",
                                                     "rank-deficient product",
                                                     "duplicated column, zero row",
                                                     "duplicated row, zero column",
                                                     "column scales 1e-6..1e6",
                                                     "tiny entries",
                                                     "huge entries",
                                                     "zero matrix" };

// Fills w->a with an m x n matrix of the given family. false if the family has no such shape.
static int sv_make(sv_work *w, int kind, int m, int n, int *rank, int *full, double *rcond)
{
    test_rng rng;
    double *d = w->t1, *b = w->t2, *c = w->t3;
    int k = m < n ? m : n, i, j, rr;
    rng.s = 0x5EEDull * 1000003ull + (uint64_t)kind * 7919ull + (uint64_t)m * 131ull + (uint64_t)n;
    *rank = -1;
    *full = 1;
    *rcond = 0;
    for (i = 0; i < m * n; i++)
        d[i] = test_rng_uniform(&rng, -1, 1);
    switch (kind) {
    case SV_RANDOM: break;
    case SV_PRODUCT:
        if (k < 2)
            return 0;
        rr = 1 + (int)(test_rng_next(&rng) % (uint64_t)(k - 1));
        for (i = 0; i < m * rr; i++)
            b[i] = test_rng_uniform(&rng, -1, 1);
        for (i = 0; i < rr * n; i++)
            c[i] = test_rng_uniform(&rng, -1, 1);
        sv_mul(b, c, d, m, rr, n);
        *rank = rr;
        *full = 0;
        *rcond = SV_RCOND;
        break;
    case SV_DUPCOL:
    case SV_DUPROW:
        if (kind == SV_DUPCOL) {
            for (i = 0; n >= 2 && i < m; i++)
                d[i * n + n - 1] = 2 * d[i * n];
            for (j = 0; m >= 2 && j < n; j++)
                d[(m - 1) * n + j] = 0;
        } else {
            for (j = 0; m >= 2 && j < n; j++)
                d[(m - 1) * n + j] = d[j];
            for (i = 0; n >= 2 && i < m; i++)
                d[i * n + n - 1] = 0;
        }
        // generically: min of the independent rows and independent columns
        i = m >= 2 ? m - 1 : 1;
        j = n >= 2 ? n - 1 : 1;
        *rank = i < j ? i : j;
        *full = *rank == k;
        *rcond = SV_RCOND;
        break;
    case SV_COLSCALE:
        for (j = 0; j < n; j++) {
            double sc = pow(10.0, test_rng_uniform(&rng, -6, 6));
            for (i = 0; i < m; i++)
                d[i * n + j] *= sc;
        }
        break;
    case SV_TINYK:
        for (i = 0; i < m * n; i++)
            d[i] *= SV_TINY;
        break;
    case SV_HUGEK:
        for (i = 0; i < m * n; i++)
            d[i] *= SV_HUGE;
        break;
    default:
        for (i = 0; i < m * n; i++)
            d[i] = 0;
        *rank = 0;
        *full = 0;
        break;
    }
    sv_store(d, w->a, m * n);
    return 1;
}

// sparse: to keep the run short, the duplicated-column family only at odd n and the
// duplicated-row one at even n, column scales at odd n, tiny and huge entries (scaled copies of
// random) at every 3rd n; the other families at every n. Always all of them at n = 64.
static void sv_run_shape(sv_work *w, int m, int n, int sparse)
{
    int kind, rank, full;
    double rcond;
    for (kind = 0; kind < SV_KINDS; kind++)
        if (sparse && n != 64 &&
            (((kind == SV_DUPCOL || kind == SV_COLSCALE) && n % 2 == 0) ||
             (kind == SV_DUPROW && n % 2 == 1) ||
             ((kind == SV_TINYK || kind == SV_HUGEK) && n % 3 != 1)))
            continue;
        else if (sv_make(w, kind, m, n, &rank, &full, &rcond))
            sv_check(w, m, n, rank, full, rcond, sv_kind_names[kind]);
}

static sv_work *sv_new_work(void)
{
    sv_work *w = (sv_work *)malloc(sizeof(sv_work));
    if (w) {
        w->explicit_checked = 0;
        w->damped0_checked = 0;
    }
    return w;
}

// ---- tests -------------------------------------------------------------------------------------

// Every shape m x n, m in 1..6, n in 1..64, every family.
static void test_svd_every_shape(void)
{
    sv_work *w = sv_new_work();
    int m, n;
    CHECK(w != NULL);
    if (!w)
        return;
    for (m = 1; m <= 6; m++)
        for (n = 1; n <= 64; n++)
            sv_run_shape(w, m, n, 1);
    // the closed-form and damping-0 comparisons really ran on many matrices
    CHECK(w->explicit_checked > 300);
    CHECK(w->damped0_checked > 700);
    free(w);
}

// Tall matrices (m > n), and square or wide ones with more than 6 rows.
static void test_svd_tall_shapes(void)
{
    static const int shapes[][2] = { { 64, 6 }, { 7, 3 },  { 10, 1 }, { 64, 1 },  { 9, 6 },
                                     { 12, 5 }, { 2, 1 },  { 20, 7 }, { 64, 2 },  { 33, 4 },
                                     { 7, 7 },  { 8, 8 },  { 7, 10 }, { 10, 12 }, { 16, 16 },
                                     { 3, 2 },  { 64, 5 }, { 11, 11 } };
    sv_work *w = sv_new_work();
    size_t i;
    CHECK(w != NULL);
    if (!w)
        return;
    for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        sv_run_shape(w, shapes[i][0], shapes[i][1], 0);
    CHECK(w->explicit_checked > 10);
    free(w);
}

// Magnitudes at the edges of what ik.h accepts, and mixed within one matrix.
static void test_svd_extreme_magnitudes(void)
{
    sv_work *w = sv_new_work();
    test_rng rng;
    int i, j, m, n;
    CHECK(w != NULL);
    if (!w)
        return;
    rng.s = 77;
    // every entry +-IK_MAX_MAGNITUDE (accepted: "at most")
    for (m = 1; m <= 6; m += 5)
        for (n = 1; n <= 64; n += 21) {
            for (i = 0; i < m * n; i++)
                w->a[i] = (test_rng_next(&rng) & 1) ? IK_MAX_MAGNITUDE : -IK_MAX_MAGNITUDE;
            sv_check(w, m, n, -1, 1, 0, "entries +-max");
        }
    // rows of magnitude 1e12, 1, SV_TINY: condition number ~1e212 in double (1e37 in float)
    m = 3;
    for (n = 3; n <= 64; n += 61) {
        for (i = 0; i < m; i++)
            for (j = 0; j < n; j++) {
                double sc = i == 0 ? 1e12 : i == 1 ? 1 : SV_TINY;
                w->a[i * n + j] = (ik_real)(sc * test_rng_uniform(&rng, 0.5, 1.0) *
                                            ((test_rng_next(&rng) & 1) ? 1 : -1));
            }
        sv_check(w, m, n, -1, 1, 0, "rows 1e12, 1, tiny");
        sv_transpose(w->ad, w->t1, m, n); // the tall transpose: columns of mixed magnitude
        sv_store(w->t1, w->a, m * n);
        sv_check(w, n, m, -1, 1, 0, "columns 1e12, 1, tiny");
    }
    // graded columns 1, g, g^2 (g = 1e-60 in double, 1e-8 in float): singular values ~1, g,
    // g^2 are all representable, but the products of two small columns' norms underflow when
    // squared; V must still be orthonormal and U S V^T = A
    for (n = 3; n <= 6; n += 3) {
        m = n == 3 ? 3 : 6;
        for (i = 0; i < m; i++)
            for (j = 0; j < n; j++)
                w->a[i * n + j] =
                    (ik_real)(test_rng_uniform(&rng, -1, 1) * (j % 3 == 0   ? 1
                                                               : j % 3 == 1 ? SV_GRADE
                                                                            : SV_GRADE * SV_GRADE));
        sv_check(w, m, n, -1, 1, 0, "graded columns 1, g, g^2");
        sv_transpose(w->ad, w->t1, m, n);
        sv_store(w->t1, w->a, m * n);
        sv_check(w, n, m, -1, 1, 0, "graded rows 1, g, g^2");
    }
    // one huge entry among tiny ones
    for (i = 0; i < 4 * 9; i++)
        w->a[i] = (ik_real)(SV_TINY * test_rng_uniform(&rng, -1, 1));
    w->a[13] = (ik_real)9e11;
    sv_check(w, 4, 9, -1, 1, 0, "one 9e11 among tiny");
    free(w);
}

// Small matrices whose decomposition is known in closed form.
static void test_svd_known_values(void)
{
    ik_real a[64], u[64], s[8], v[64], x[64];
    static const int shapes[][2] = { { 1, 1 }, { 2, 2 }, { 3, 3 }, { 1, 64 }, { 64, 1 } };
    size_t ss = 0;
    void *scratch;
    double n2;
    int i;
    for (i = 0; i < 5; i++)
        if (ik_svd_scratch_size(shapes[i][0], shapes[i][1]) > ss)
            ss = ik_svd_scratch_size(shapes[i][0], shapes[i][1]);
    scratch = malloc(ss);
    CHECK(scratch != NULL);
    if (!scratch)
        return;

    // 1 x 1, negative: s = 3, u v = -1, pinv -1/3, damped -3/(9 + 16)
    a[0] = IK_R(-3);
    CHECK(ik_svd(a, 1, 1, u, s, v) == IK_OK);
    CHECK_NEAR(s[0], 3, 3 * SV_TOL);
    CHECK_NEAR((double)u[0] * (double)v[0], -1, SV_TOL);
    CHECK_NEAR(fabs((double)u[0]), 1, SV_TOL);
    CHECK(ik_svd_pinv(a, 1, 1, 0, x, scratch, ss) == IK_OK);
    CHECK_NEAR(x[0], -1.0 / 3.0, SV_TOL);
    CHECK(ik_svd_damped_pinv(a, 1, 1, IK_R(4), x, scratch, ss) == IK_OK);
    CHECK_NEAR(x[0], -0.12, SV_TOL);
    CHECK(ik_svd_damped_pinv(a, 1, 1, 0, x, scratch, ss) == IK_OK);
    CHECK_NEAR(x[0], -1.0 / 3.0, SV_TOL);

    // 1 x 1 zero: s = 0 exactly, |u| = |v| = 1 (completed), every inverse 0
    a[0] = 0;
    CHECK(ik_svd(a, 1, 1, u, s, v) == IK_OK);
    CHECK(s[0] == 0);
    CHECK_NEAR(fabs((double)u[0]), 1, SV_TOL);
    CHECK_NEAR(fabs((double)v[0]), 1, SV_TOL);
    x[0] = 7;
    CHECK(ik_svd_pinv(a, 1, 1, 0, x, scratch, ss) == IK_OK);
    CHECK(x[0] == 0);
    x[0] = 7;
    CHECK(ik_svd_damped_pinv(a, 1, 1, 0, x, scratch, ss) == IK_OK);
    CHECK(x[0] == 0);
    x[0] = 7;
    CHECK(ik_svd_damped_pinv(a, 1, 1, 1, x, scratch, ss) == IK_OK);
    CHECK(x[0] == 0);

    // 1 x 1 positive: pinv 1/2, damped 2/(4 + 1)
    a[0] = 2;
    CHECK(ik_svd(a, 1, 1, u, s, v) == IK_OK);
    CHECK_NEAR(s[0], 2, 2 * SV_TOL);
    CHECK_NEAR((double)u[0] * (double)v[0], 1, SV_TOL);
    CHECK(ik_svd_pinv(a, 1, 1, IK_R(0.5), x, scratch, ss) == IK_OK);
    CHECK_NEAR(x[0], 0.5, SV_TOL);
    CHECK(ik_svd_damped_pinv(a, 1, 1, 1, x, scratch, ss) == IK_OK);
    CHECK_NEAR(x[0], 0.4, SV_TOL);

    // 1 x 1 subnormal: s = |a| (needs scaling: a^2 underflows); damped with d = 1 gives a / (a^2
    // + 1) = a. (Not with -ffast-math: its programs read subnormal numbers as zero.)
#if !TEST_FAST_MATH
    a[0] = (ik_real)(-SV_SUBNORMAL);
    CHECK(ik_svd(a, 1, 1, u, s, v) == IK_OK);
    CHECK_NEAR((double)s[0] / SV_SUBNORMAL, 1, SV_TOL);
    CHECK_NEAR((double)u[0] * (double)v[0], -1, SV_TOL);
    CHECK(ik_svd_damped_pinv(a, 1, 1, 1, x, scratch, ss) == IK_OK);
    CHECK_NEAR((double)x[0] / SV_SUBNORMAL, -1, SV_TOL);
#endif

    // diag(3, -4): s = (4, 3), pinv diag(1/3, -1/4)
    a[0] = 3, a[1] = 0, a[2] = 0, a[3] = -4;
    CHECK(ik_svd(a, 2, 2, u, s, v) == IK_OK);
    CHECK_NEAR(s[0], 4, 4 * SV_TOL);
    CHECK_NEAR(s[1], 3, 3 * SV_TOL);
    CHECK(ik_svd_pinv(a, 2, 2, 0, x, scratch, ss) == IK_OK);
    CHECK_NEAR(x[0], 1.0 / 3.0, SV_TOL);
    CHECK_NEAR(x[1], 0, SV_TOL);
    CHECK_NEAR(x[2], 0, SV_TOL);
    CHECK_NEAR(x[3], -0.25, SV_TOL);

    // diag(1, 0.25): rcond exactly 0.25 drops s = 0.25 ("at or below"), 0.24 keeps it
    a[0] = 1, a[1] = 0, a[2] = 0, a[3] = IK_R(0.25);
    CHECK(ik_svd_pinv(a, 2, 2, IK_R(0.25), x, scratch, ss) == IK_OK);
    CHECK_NEAR(x[0], 1, SV_TOL);
    CHECK(x[1] == 0 && x[2] == 0);
    CHECK_NEAR(x[3], 0, SV_TOL);
    CHECK(ik_svd_pinv(a, 2, 2, IK_R(0.24), x, scratch, ss) == IK_OK);
    CHECK_NEAR(x[0], 1, SV_TOL);
    CHECK_NEAR(x[3], 4, 4 * SV_TOL);
    // rcond 0.99 keeps only s_max
    CHECK(ik_svd_pinv(a, 2, 2, IK_R(0.99), x, scratch, ss) == IK_OK);
    CHECK_NEAR(x[0], 1, SV_TOL);
    CHECK_NEAR(x[3], 0, SV_TOL);

    // rank 1 [[1, 2], [2, 4]]: s = (5, 0), pinv = A^T / |A|_F^2 = A / 25
    a[0] = 1, a[1] = 2, a[2] = 2, a[3] = 4;
    CHECK(ik_svd(a, 2, 2, u, s, v) == IK_OK);
    CHECK_NEAR(s[0], 5, 5 * SV_TOL);
    CHECK_NEAR(s[1], 0, 5 * SV_TOL);
    CHECK(ik_svd_pinv(a, 2, 2, SV_RCOND, x, scratch, ss) == IK_OK);
    for (i = 0; i < 4; i++)
        CHECK_NEAR(x[i], (double)a[i] / 25.0, SV_TOL);

    // a signed permutation [[0, 0, 2], [0, -1, 0], [3, 0, 0]]: s = (3, 2, 1), inverse exact
    for (i = 0; i < 9; i++)
        a[i] = 0;
    a[2] = 2, a[4] = -1, a[6] = 3;
    CHECK(ik_svd(a, 3, 3, u, s, v) == IK_OK);
    CHECK_NEAR(s[0], 3, 3 * SV_TOL);
    CHECK_NEAR(s[1], 2, 2 * SV_TOL);
    CHECK_NEAR(s[2], 1, SV_TOL);
    CHECK(ik_svd_pinv(a, 3, 3, 0, x, scratch, ss) == IK_OK);
    for (i = 0; i < 9; i++) {
        double e = i == 2 ? 1.0 / 3.0 : i == 4 ? -1.0 : i == 6 ? 0.5 : 0.0;
        CHECK_NEAR(x[i], e, SV_TOL);
    }

    // a row vector (1 x 64) and a column vector (64 x 1): s = |a|, pinv = a^T / |a|^2, the one
    // singular vector of length 64 is +-a / |a|
    n2 = 0;
    for (i = 0; i < 64; i++) {
        a[i] = (ik_real)(0.25 * (i % 7) - 0.6);
        n2 += (double)a[i] * (double)a[i];
    }
    CHECK(ik_svd(a, 1, 64, u, s, v) == IK_OK);
    CHECK_NEAR(s[0], sqrt(n2), SV_TOL * sqrt(n2));
    for (i = 0; i < 64; i++)
        CHECK_NEAR((double)v[i] * (double)u[0], (double)a[i] / sqrt(n2), SV_TOL);
    CHECK(ik_svd_pinv(a, 1, 64, 0, x, scratch, ss) == IK_OK);
    for (i = 0; i < 64; i++)
        CHECK_NEAR((double)x[i] * sqrt(n2), (double)a[i] / sqrt(n2), SV_TOL);
    CHECK(ik_svd(a, 64, 1, u, s, v) == IK_OK);
    CHECK_NEAR(s[0], sqrt(n2), SV_TOL * sqrt(n2));
    for (i = 0; i < 64; i++)
        CHECK_NEAR((double)u[i] * (double)v[0], (double)a[i] / sqrt(n2), SV_TOL);
    CHECK(ik_svd_pinv(a, 64, 1, 0, x, scratch, ss) == IK_OK);
    for (i = 0; i < 64; i++)
        CHECK_NEAR((double)x[i] * sqrt(n2), (double)a[i] / sqrt(n2), SV_TOL);
    free(scratch);
}

// Large damping: X ~ A^T / d^2 (relative error (|A| / d)^2), and |X|_2 <= 1/(2d) always.
static void test_svd_large_damping(void)
{
    sv_work *w = sv_new_work();
    test_rng rng;
    int m = 6, n = 40, i, j;
    size_t ss = ik_svd_scratch_size(m, n);
    void *scratch = malloc(ss);
    double d, na, prev = HUGE_VAL;
    CHECK(w != NULL && scratch != NULL);
    if (!w || !scratch) {
        free(w);
        free(scratch);
        return;
    }
    rng.s = 4242;
    for (i = 0; i < m * n; i++)
        w->a[i] = (ik_real)test_rng_uniform(&rng, -1, 1);
    sv_to_double(w->a, w->ad, m * n);
    na = sv_norm2(w, w->ad, m, n);
    for (d = 1e-3; d <= 1e9; d *= 100) {
        double fx, q = na / d;
        CHECK(ik_svd_damped_pinv(w->a, m, n, (ik_real)d, w->x, scratch, ss) == IK_OK);
        sv_to_double(w->x, w->xd, n * m);
        fx = sv_fro(w->xd, n * m);
        CHECK(fx < prev); // monotone in d
        prev = fx;
        CHECK(sv_norm2(w, w->xd, n, m) * 2 * d <= 1 + SV_TOL * (1 + q * q));
        if (d >= 1e4 * na) {
            for (i = 0; i < n; i++)
                for (j = 0; j < m; j++)
                    w->ref[i * m + j] = w->ad[j * n + i] / (d * d);
            CHECK_NEAR(sv_fro_diff(w->xd, w->ref, w->t1, n * m) / sv_fro(w->ref, n * m), 0,
                       q * q + SV_TOL);
        }
    }
    // the largest damping accepted
    CHECK(ik_svd_damped_pinv(w->a, m, n, IK_MAX_MAGNITUDE, w->x, scratch, ss) == IK_OK);
    CHECK(sv_finite(w->x, n * m));
    sv_to_double(w->x, w->xd, n * m);
    CHECK(sv_maxabs(w->xd, n * m) <= 2.0 / ((double)IK_MAX_MAGNITUDE * (double)IK_MAX_MAGNITUDE));
    free(scratch);
    free(w);
}

// Damping and magnitude both tiny: d^2 and s^2 underflow, s / (s^2 + d^2) must not.
static void test_svd_tiny_damping(void)
{
    sv_work *w = sv_new_work();
    test_rng rng;
    int m = 3, n = 5, i;
    size_t ss = ik_svd_scratch_size(m, n);
    void *scratch = malloc(ss);
    volatile double d; // (not a constant: -ffast-math would fold 1 / d^2 into an infinity below)
    CHECK(w != NULL && scratch != NULL);
    if (!w || !scratch) {
        free(w);
        free(scratch);
        return;
    }
    rng.s = 99;
    for (i = 0; i < m * n; i++)
        w->a[i] = (ik_real)(SV_TINY * test_rng_uniform(&rng, -1, 1));
    sv_to_double(w->a, w->ad, m * n);
    d = SV_TINY;
    CHECK(ik_svd_damped_pinv(w->a, m, n, (ik_real)d, w->x, scratch, ss) == IK_OK);
    CHECK(sv_finite(w->x, n * m));
    sv_to_double(w->x, w->xd, n * m);
    CHECK(sv_ref_pinv(w, w->ad, m, n, (double)(ik_real)d, w->ref));
    {
        double q = sv_norm2(w, w->ad, m, n) / d;
        CHECK_NEAR(sv_fro_diff(w->xd, w->ref, w->t1, n * m) / sv_fro(w->ref, n * m), 0,
                   SV_TOL * (1 + q * q));
    }
    free(scratch);
    free(w);
}

static void test_svd_scratch_size(void)
{
    int m, n;
    int ok = 1;
    for (m = 1; m <= 6; m++)
        for (n = 1; n <= 64; n++)
            if (ik_svd_scratch_size(m, n) == 0)
                ok = 0;
    CHECK(ok);
    CHECK(ik_svd_scratch_size(64, 6) > 0);
    CHECK(ik_svd_scratch_size(1, 1) > 0);
    // the largest shapes accepted: m * n = IK_MAX_JOINTS * 64
    CHECK(ik_svd_scratch_size(1, (int)SV_MAX_ELEMS) > 0);
    CHECK(ik_svd_scratch_size(IK_MAX_JOINTS, 64) > 0);
    CHECK(ik_svd_scratch_size(64, IK_MAX_JOINTS) > 0);
    CHECK(ik_svd_scratch_size(6, (int)(SV_MAX_ELEMS / 6)) > 0);
    // out of range: 0
    CHECK(ik_svd_scratch_size(0, 5) == 0);
    CHECK(ik_svd_scratch_size(5, 0) == 0);
    CHECK(ik_svd_scratch_size(0, 0) == 0);
    CHECK(ik_svd_scratch_size(-1, 5) == 0);
    CHECK(ik_svd_scratch_size(5, -1) == 0);
    CHECK(ik_svd_scratch_size(-1, -1) == 0); // product positive
    CHECK(ik_svd_scratch_size(-6, -64) == 0);
    CHECK(ik_svd_scratch_size(INT_MIN, 1) == 0);
    CHECK(ik_svd_scratch_size(1, (int)SV_MAX_ELEMS + 1) == 0);
    CHECK(ik_svd_scratch_size(IK_MAX_JOINTS + 1, 64) == 0);
    CHECK(ik_svd_scratch_size(64, IK_MAX_JOINTS + 1) == 0);
    CHECK(ik_svd_scratch_size(7, (int)(SV_MAX_ELEMS / 6)) == 0);
    // m * n overflows int
    CHECK(ik_svd_scratch_size(65536, 65536) == 0);
    CHECK(ik_svd_scratch_size(65537, 65535) == 0);
    CHECK(ik_svd_scratch_size(46341, 46341) == 0);
    CHECK(ik_svd_scratch_size(INT_MAX, INT_MAX) == 0);
    CHECK(ik_svd_scratch_size(INT_MAX, 2) == 0);
}

// Any alignment and any size >= ik_svd_scratch_size() works, nothing outside it is touched,
// and the result does not depend on where the scratch is.
static void test_svd_scratch_alignment(void)
{
    static const int shapes[][2] = { { 6, 64 }, { 5, 9 }, { 1, 1 }, { 64, 6 }, { 3, 3 } };
    sv_work *w = sv_new_work();
    test_rng rng;
    size_t si;
    CHECK(w != NULL);
    if (!w)
        return;
    rng.s = 1234;
    for (si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        int m = shapes[si][0], n = shapes[si][1], i, off, damped;
        size_t ss = ik_svd_scratch_size(m, n);
        unsigned char *buf = (unsigned char *)malloc(ss + 64);
        CHECK(buf != NULL);
        if (!buf)
            continue;
        for (i = 0; i < m * n; i++)
            w->a[i] = (ik_real)test_rng_uniform(&rng, -1, 1);
        for (damped = 0; damped < 2; damped++) {
            // reference: a malloc'd block of exactly the size asked for
            void *exact = malloc(ss);
            ik_result r;
            CHECK(exact != NULL);
            if (!exact)
                continue;
            r = damped ? ik_svd_damped_pinv(w->a, m, n, IK_R(0.1), w->x, exact, ss)
                       : ik_svd_pinv(w->a, m, n, 0, w->x, exact, ss);
            CHECK(r == IK_OK);
            free(exact);
            sv_to_double(w->x, w->x0d, n * m);
            for (off = 1; off <= 15; off += 2) {
                size_t extra;
                for (extra = 0; extra <= 8; extra += 8) {
                    memset(buf, 0x5A, ss + 64);
                    r = damped
                            ? ik_svd_damped_pinv(w->a, m, n, IK_R(0.1), w->x, buf + off, ss + extra)
                            : ik_svd_pinv(w->a, m, n, 0, w->x, buf + off, ss + extra);
                    CHECK(r == IK_OK);
                    // the bytes before the scratch and past ss + extra are the caller's
                    CHECK(sv_is_pattern(buf, (size_t)off, 0x5A));
                    CHECK(sv_is_pattern(buf + off + ss + extra, 64 - (size_t)off - extra, 0x5A));
                    sv_to_double(w->x, w->xd, n * m);
                    CHECK_NEAR(sv_fro_diff(w->xd, w->x0d, w->t1, n * m) / sv_fro(w->x0d, n * m), 0,
                               SV_TOL);
                }
            }
        }
        free(buf);
    }
    free(w);
}

// The largest matrix accepted (m * n = IK_MAX_JOINTS * 64) and one element more.
static void test_svd_size_limit(void)
{
    long count = SV_MAX_ELEMS + 1, i;
    ik_real *a = (ik_real *)malloc((size_t)count * sizeof(ik_real));
    ik_real *v = (ik_real *)malloc((size_t)count * sizeof(ik_real));
    ik_real *x = (ik_real *)malloc((size_t)count * sizeof(ik_real));
    ik_real u[2], s[2];
    double n2 = 0;
    CHECK(a != NULL && v != NULL && x != NULL);
    if (a && v && x) {
        for (i = 0; i < count; i++) {
            a[i] = (ik_real)(((i * 37) % 11) - 5) * IK_R(0.125);
            if (i < count - 1)
                n2 += (double)a[i] * (double)a[i];
        }
        // 1 x (limit + 1): rejected, outputs untouched
        memset(u, 0xA5, sizeof u);
        memset(s, 0xA5, sizeof s);
        memset(v, 0xA5, (size_t)count * sizeof(ik_real));
        CHECK(ik_svd(a, 1, (int)count, u, s, v) == IK_ERR_BAD_ARG);
        CHECK(sv_is_pattern(u, sizeof u, 0xA5) && sv_is_pattern(s, sizeof s, 0xA5));
        CHECK(sv_is_pattern(v, (size_t)count * sizeof(ik_real), 0xA5));
        {
            unsigned char big_scratch[256];
            memset(x, 0xA5, (size_t)count * sizeof(ik_real));
            CHECK(ik_svd_pinv(a, 1, (int)count, 0, x, big_scratch, sizeof big_scratch) ==
                  IK_ERR_BAD_ARG);
            CHECK(ik_svd_damped_pinv(a, (int)count, 1, 0, x, big_scratch, sizeof big_scratch) ==
                  IK_ERR_BAD_ARG);
            CHECK(sv_is_pattern(x, (size_t)count * sizeof(ik_real), 0xA5));
        }
        // 1 x limit: accepted; s = |a|, u v^T = a / |a|
        // |a| is a sum of 262144 squares: in float its worst-case rounding error is n u = 1.6e-2
        // (recursive summation, Higham 2002, sec. 4.2), far above the 1e-5 that holds for the
        // lengths IK uses; in double n u = 2.9e-11 and 1e-12 holds.
        double tol = TOL(1e-12, (double)SV_MAX_ELEMS * (double)FLT_EPSILON / 2), amax = 0;
        CHECK(ik_svd(a, 1, (int)(count - 1), u, s, v) == IK_OK);
        CHECK_NEAR((double)s[0] / sqrt(n2), 1, tol);
        {
            double worst = 0;
            for (i = 0; i < count - 1; i++) {
                double e = fabs((double)u[0] * (double)v[i] - (double)a[i] / sqrt(n2));
                if (!(e <= worst))
                    worst = e;
                if (fabs((double)a[i]) > amax)
                    amax = fabs((double)a[i]);
            }
            CHECK_NEAR(worst, 0, tol * amax / sqrt(n2));
        }
    }
    free(a);
    free(v);
    free(x);
}

// Every error path returns its code and leaves every output byte untouched.
static void test_svd_errors(void)
{
    enum { M = 3, N = 4 };
    ik_real a[M * N], bad[M * N], u[64], s[64], v[64], x[64];
    unsigned char ok_u[sizeof u], ok_s[sizeof s], ok_v[sizeof v], ok_x[sizeof x];
    test_rng rng;
    size_t ss = ik_svd_scratch_size(M, N), big = ik_svd_scratch_size(64, 64);
    void *scratch = malloc(big > ss ? big : ss);
    int i, c, which;
    const int dims[][2] = { { 0, N },
                            { M, 0 },
                            { 0, 0 },
                            { -1, N },
                            { M, -5 },
                            { -1, -1 },
                            { -3, -4 },
                            { INT_MIN, 1 },
                            { 65536, 65536 },
                            { 46341, 46341 },
                            { INT_MAX, INT_MAX },
                            { 65537, 65535 } };
    CHECK(scratch != NULL);
    if (!scratch)
        return;
    rng.s = 555;
    for (i = 0; i < M * N; i++)
        a[i] = (ik_real)test_rng_uniform(&rng, -1, 1);
    memset(u, 0xA5, sizeof u);
    memset(s, 0xA5, sizeof s);
    memset(v, 0xA5, sizeof v);
    memset(x, 0xA5, sizeof x);
    memcpy(ok_u, u, sizeof u);
    memcpy(ok_s, s, sizeof s);
    memcpy(ok_v, v, sizeof v);
    memcpy(ok_x, x, sizeof x);
#define SV_UNTOUCHED()                                                                             \
    CHECK(memcmp(u, ok_u, sizeof u) == 0 && memcmp(s, ok_s, sizeof s) == 0 &&                      \
          memcmp(v, ok_v, sizeof v) == 0 && memcmp(x, ok_x, sizeof x) == 0)

    // NULL pointers
    CHECK(ik_svd(NULL, M, N, u, s, v) == IK_ERR_NULL_ARG);
    CHECK(ik_svd(a, M, N, NULL, s, v) == IK_ERR_NULL_ARG);
    CHECK(ik_svd(a, M, N, u, NULL, v) == IK_ERR_NULL_ARG);
    CHECK(ik_svd(a, M, N, u, s, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_svd_pinv(NULL, M, N, 0, x, scratch, ss) == IK_ERR_NULL_ARG);
    CHECK(ik_svd_pinv(a, M, N, 0, NULL, scratch, ss) == IK_ERR_NULL_ARG);
    CHECK(ik_svd_pinv(a, M, N, 0, x, NULL, ss) == IK_ERR_NULL_ARG);
    CHECK(ik_svd_damped_pinv(NULL, M, N, 0, x, scratch, ss) == IK_ERR_NULL_ARG);
    CHECK(ik_svd_damped_pinv(a, M, N, 0, NULL, scratch, ss) == IK_ERR_NULL_ARG);
    CHECK(ik_svd_damped_pinv(a, M, N, 0, x, NULL, ss) == IK_ERR_NULL_ARG);
    SV_UNTOUCHED();

    // m or n < 1, m * n too large or overflowing (a is small: it must not be read)
    for (i = 0; i < (int)(sizeof dims / sizeof dims[0]); i++) {
        int before = ik_test_failed;
        CHECK(ik_svd(a, dims[i][0], dims[i][1], u, s, v) == IK_ERR_BAD_ARG);
        CHECK(ik_svd_pinv(a, dims[i][0], dims[i][1], 0, x, scratch, big) == IK_ERR_BAD_ARG);
        CHECK(ik_svd_damped_pinv(a, dims[i][0], dims[i][1], 0, x, scratch, big) == IK_ERR_BAD_ARG);
        SV_UNTOUCHED();
        if (ik_test_failed != before)
            printf("  dims %d x %d\n", dims[i][0], dims[i][1]);
    }

    // bad entries: NaN, +-Inf, |x| > IK_MAX_MAGNITUDE, at the first, a middle and the last place
    for (c = 0; c < 5; c++)
        for (which = 0; which < 3; which++) {
            int at = which == 0 ? 0 : which == 1 ? 5 : M * N - 1, before = ik_test_failed;
            memcpy(bad, a, sizeof a);
            bad[at] = c == 0   ? (ik_real)NAN
                      : c == 1 ? IK_INFINITY
                      : c == 2 ? -IK_INFINITY
                      : c == 3 ? IK_R(1.5e12)
                               : IK_R(-2e12);
            CHECK(ik_svd(bad, M, N, u, s, v) == IK_ERR_BAD_ARG);
            CHECK(ik_svd_pinv(bad, M, N, 0, x, scratch, ss) == IK_ERR_BAD_ARG);
            CHECK(ik_svd_damped_pinv(bad, M, N, IK_R(0.1), x, scratch, ss) == IK_ERR_BAD_ARG);
            SV_UNTOUCHED();
            if (ik_test_failed != before)
                printf("  bad entry kind %d at %d\n", c, at);
        }

    // rcond outside [0, 1)
    {
        const ik_real rconds[] = { IK_R(-0.5),   IK_R(-1e-30), IK_R(1),     IK_R(1.5),
                                   (ik_real)NAN, IK_INFINITY,  -IK_INFINITY };
        for (i = 0; i < (int)(sizeof rconds / sizeof rconds[0]); i++) {
            CHECK(ik_svd_pinv(a, M, N, rconds[i], x, scratch, ss) == IK_ERR_BAD_ARG);
            SV_UNTOUCHED();
        }
    }
    // damping < 0, not finite, larger than IK_MAX_MAGNITUDE ("real inputs must be finite and
    // at most IK_MAX_MAGNITUDE in size")
    {
        const ik_real damps[] = { IK_R(-1),    IK_R(-1e-30), (ik_real)NAN,
                                  IK_INFINITY, -IK_INFINITY, IK_R(2e12) };
        for (i = 0; i < (int)(sizeof damps / sizeof damps[0]); i++) {
            CHECK(ik_svd_damped_pinv(a, M, N, damps[i], x, scratch, ss) == IK_ERR_BAD_ARG);
            SV_UNTOUCHED();
        }
    }
    // scratch too small
    CHECK(ik_svd_pinv(a, M, N, 0, x, scratch, 0) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(ik_svd_pinv(a, M, N, 0, x, scratch, ss - 1) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(ik_svd_pinv(a, M, N, 0, x, scratch, ss / 2) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(ik_svd_damped_pinv(a, M, N, 0, x, scratch, 0) == IK_ERR_SCRATCH_TOO_SMALL);
    CHECK(ik_svd_damped_pinv(a, M, N, 0, x, scratch, ss - 1) == IK_ERR_SCRATCH_TOO_SMALL);
    // too small for the shape asked, though big enough for a smaller one
    CHECK(ik_svd_pinv(a, M, N, 0, x, scratch, ik_svd_scratch_size(1, 1) - 1) ==
          IK_ERR_SCRATCH_TOO_SMALL);
    SV_UNTOUCHED();

    // the edges of the valid ranges are accepted
    CHECK(ik_svd_pinv(a, M, N, IK_R(-0.0), x, scratch, ss) == IK_OK); // -0 == 0 is in [0, 1)
    CHECK(ik_svd_pinv(a, M, N, IK_R(0.999), x, scratch, ss) == IK_OK);
    CHECK(ik_svd_damped_pinv(a, M, N, IK_R(-0.0), x, scratch, ss) == IK_OK);
    CHECK(ik_svd_damped_pinv(a, M, N, IK_MAX_MAGNITUDE, x, scratch, ss) == IK_OK);
    memcpy(bad, a, sizeof a);
    bad[0] = IK_MAX_MAGNITUDE;
    bad[M * N - 1] = -IK_MAX_MAGNITUDE;
    CHECK(ik_svd(bad, M, N, u, s, v) == IK_OK);
    CHECK(ik_svd_pinv(bad, M, N, 0, x, scratch, ss) == IK_OK);
    CHECK(ik_svd_damped_pinv(bad, M, N, 1, x, scratch, ss) == IK_OK);
#undef SV_UNTOUCHED
    free(scratch);
}

void test_svd(void)
{
    RUN(test_svd_errors);
    RUN(test_svd_scratch_size);
    RUN(test_svd_scratch_alignment);
    RUN(test_svd_known_values);
    RUN(test_svd_every_shape);
    RUN(test_svd_tall_shapes);
    RUN(test_svd_extreme_magnitudes);
    RUN(test_svd_large_damping);
    RUN(test_svd_tiny_damping);
    RUN(test_svd_size_limit);
}
