/*
 * The plans the library makes on an H100 or H200 from the compiled-in
 * database, without a GPU: each line of stdin is COUNT M N K (column-major;
 * COUNT 1 a single call, else a strided batch), each printed in the four
 * transposes, strict mode, with the model's time. A measuring aid, not part
 * of the library: it names each measured plan in evaluate.py. Build it
 * against a build tree's internal library (the plans/ files came from the
 * tree each run measured):
 *   gcc -DCL_TARGET_OPENCL_VERSION=120 -Isrc -Iinclude -Ibuild -o /tmp/plans \
 *     bench/results/nvidia-h100/direct-batched/plans.c build/liboclblas_internal.a -lOpenCL -lm -lpthread -ldl
 *   /tmp/plans "NVIDIA H200" < problems-as-lines.txt
 */
#include "plan/plan.h"
#include "db/db.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    oclblas__device_info d;
    memset(&d, 0, sizeof d);
    d.compute_units = 132;
    d.max_alloc = 20ull << 30;
    d.lim = (oclblas__limits){1024, {1024, 1024, 64}, 48 * 1024, 90};
    oclblas__strlcpy(d.name, argc > 1 ? argv[1] : "NVIDIA H100 80GB HBM3", sizeof d.name);
    oclblas__strlcpy(d.vendor, "nvidia", sizeof d.vendor);
    oclblas__strlcpy(d.type, "GPU", sizeof d.type);
    oclblas__strlcpy(d.arch, "SM9.0", sizeof d.arch);
    oclblas__devctx cx;
    if (oclblas__devctx_resolve(&d, &cx) != OCLBLAS_SUCCESS) {
        fputs("the device's parameters did not resolve\n", stderr);
        return 1;
    }
    size_t count, m, n, k;
    while (scanf("%zu %zu %zu %zu", &count, &m, &n, &k) == 4)
        for (int t = 0; t < 4; ++t) {
            const int at = t / 2, bt = t % 2;
            const oclblas__gemm_problem p = {at, bt, m, n, k, 1.0f, 0.0f,
                                             {0, at ? k : m, 0, 16}, {0, bt ? n : k, 0, 16}, {0, m, 0, 16},
                                             OCLBLAS_MATH_STRICT};
            const oclblas__batch b = {count, m * k, n * k, m * n};
            oclblas__plan plan;
            const oclblas_status st = oclblas__gemm_batch_plan(&cx, &p, count > 1 ? &b : NULL, &plan);
            const oclblas__call call = {"sgemm", OCLBLAS_COL_MAJOR, at, bt, m, n, k};
            char text[512];
            oclblas__plan_describe(&call, &plan, text, sizeof text);
            printf("str %zux%zux%zu x%zu %c%c: %d %s\n", m, n, k, count, at ? 'T' : 'N', bt ? 'T' : 'N', (int)st, text);
        }
    return 0;
}
