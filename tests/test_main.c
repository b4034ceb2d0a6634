/* The test program: the only translation unit with IK_IMPLEMENTATION. Every other test file
   includes ik.h as a plain header, so building this program is also a link test. */
#include <stdio.h>
#include <stdlib.h>
// internal invariants are checked in every test run
#define IK_ASSERT(c)                                                                               \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            printf("IK_ASSERT failed: %s (%s:%d)\n", #c, __FILE__, __LINE__);                      \
            abort();                                                                               \
        }                                                                                          \
    } while (0)
#define IK_IMPLEMENTATION
#include "test.h"

int ik_test_passed = 0, ik_test_failed = 0;

void test_math(void);
void test_chain(void);
void test_svd(void);
void test_limb(void);
void test_ccd(void);
void test_jacobian(void);
void test_arm(void);
void test_robust(void);

int main(void)
{
    printf("ik.h %s, ik_real = %s\n", IK_VERSION_STRING, IK_REAL_FMT);
    CHECK(ik_real_size() == (int)sizeof(ik_real));
    test_math();
    test_chain();
    test_svd();
    test_limb();
    test_ccd();
    test_jacobian();
    test_arm();
    test_robust();
    printf("%d passed, %d failed\n", ik_test_passed, ik_test_failed);
    return ik_test_failed == 0 ? 0 : 1;
}
