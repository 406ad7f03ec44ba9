/* Builds every program of the default device's sets into the disk cache
 * (OCLBLAS_CACHE_DIR), as oclblas_cache_fill promises; prints its status. */
#include <oclblas.h>
#include <stdio.h>

int main(void)
{
    cl_device_id device;
    oclblas_status st = oclblas_default_device(&device, NULL, NULL);
    if (st == OCLBLAS_SUCCESS)
        st = oclblas_cache_fill(device);
    printf("oclblas_cache_fill: %s\n", oclblas_status_name(st));
    return st != OCLBLAS_SUCCESS;
}
