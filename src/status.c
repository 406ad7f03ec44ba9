/*
 * oclblas_status_string: one constant sentence for every library status and
 * for the OpenCL error codes that pass through unchanged.
 */
#include "internal.h"

const char *oclblas_status_string(oclblas_status status)
{
    switch ((int)status) {
    case OCLBLAS_SUCCESS: return "success";
    case OCLBLAS_INVALID_LAYOUT: return "layout is neither row-major nor column-major";
    case OCLBLAS_INVALID_TRANS_A: return "transpose of A is not one of no-trans, trans, conj-trans";
    case OCLBLAS_INVALID_TRANS_B: return "transpose of B is not one of no-trans, trans, conj-trans";
    case OCLBLAS_INVALID_LDA: return "lda is smaller than the rows (column-major) or columns (row-major) of A";
    case OCLBLAS_INVALID_LDB: return "ldb is smaller than the rows (column-major) or columns (row-major) of B";
    case OCLBLAS_INVALID_LDC: return "ldc is smaller than the rows (column-major) or columns (row-major) of C";
    case OCLBLAS_INVALID_INCX: return "incx is zero";
    case OCLBLAS_INVALID_INCY: return "incy is zero";
    case OCLBLAS_NULL_A: return "A is NULL";
    case OCLBLAS_NULL_B: return "B is NULL";
    case OCLBLAS_NULL_C: return "C is NULL";
    case OCLBLAS_NULL_X: return "x is NULL";
    case OCLBLAS_NULL_Y: return "y is NULL";
    case OCLBLAS_NULL_QUEUE: return "the command queue is NULL";
    case OCLBLAS_BUFFER_A_TOO_SMALL: return "buffer A is too small for the offset, sizes and lda";
    case OCLBLAS_BUFFER_B_TOO_SMALL: return "buffer B is too small for the offset, sizes and ldb";
    case OCLBLAS_BUFFER_C_TOO_SMALL: return "buffer C is too small for the offset, sizes and ldc";
    case OCLBLAS_BUFFER_X_TOO_SMALL: return "buffer x is too small for the offset, size and incx";
    case OCLBLAS_BUFFER_Y_TOO_SMALL: return "buffer y is too small for the offset, size and incy";
    case OCLBLAS_BUFFER_CONTEXT_MISMATCH: return "a buffer belongs to another OpenCL context than the queue";
    case OCLBLAS_SIZE_TOO_LARGE: return "an index would exceed the 32-bit range of the kernels";
    case OCLBLAS_NO_DEVICE: return "no OpenCL platform or device is available";
    case OCLBLAS_DEVICE_NOT_FOUND: return "OCLBLAS_DEVICE names no available device";
    case OCLBLAS_INVALID_PARAMS: return "kernel parameters break the kernel's constraints for this device";
    case OCLBLAS_UNKNOWN_KERNEL: return "unknown kernel name";
    case OCLBLAS_UNKNOWN_PARAM: return "unknown parameter name for this kernel";
    case OCLBLAS_BUILD_FAILED: return "the OpenCL compiler rejected a kernel";
    case OCLBLAS_OUT_OF_HOST_MEMORY: return "out of host memory";
    case OCLBLAS_DATABASE_PARSE_ERROR: return "database file is not well-formed JSON";
    case OCLBLAS_DATABASE_INVALID_ENTRY: return "database entry is missing fields or has illegal parameters";
    case OCLBLAS_DATABASE_FILE_ERROR: return "database file or folder cannot be read";
    case OCLBLAS_INVALID_ARGUMENT: return "invalid argument to a control function";
    /* OpenCL codes */
    case CL_DEVICE_NOT_FOUND: return "OpenCL: device not found";
    case CL_DEVICE_NOT_AVAILABLE: return "OpenCL: device not available";
    case CL_COMPILER_NOT_AVAILABLE: return "OpenCL: compiler not available";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "OpenCL: memory object allocation failure";
    case CL_OUT_OF_RESOURCES: return "OpenCL: out of resources";
    case CL_OUT_OF_HOST_MEMORY: return "OpenCL: out of host memory";
    case CL_PROFILING_INFO_NOT_AVAILABLE: return "OpenCL: profiling info not available";
    case CL_MEM_COPY_OVERLAP: return "OpenCL: memory copy overlap";
    case CL_IMAGE_FORMAT_MISMATCH: return "OpenCL: image format mismatch";
    case CL_IMAGE_FORMAT_NOT_SUPPORTED: return "OpenCL: image format not supported";
    case CL_BUILD_PROGRAM_FAILURE: return "OpenCL: build program failure";
    case CL_MAP_FAILURE: return "OpenCL: map failure";
    case CL_MISALIGNED_SUB_BUFFER_OFFSET: return "OpenCL: misaligned sub-buffer offset";
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return "OpenCL: error status in an event of the wait list";
    case CL_COMPILE_PROGRAM_FAILURE: return "OpenCL: compile program failure";
    case CL_LINKER_NOT_AVAILABLE: return "OpenCL: linker not available";
    case CL_LINK_PROGRAM_FAILURE: return "OpenCL: link program failure";
    case CL_DEVICE_PARTITION_FAILED: return "OpenCL: device partition failed";
    case CL_KERNEL_ARG_INFO_NOT_AVAILABLE: return "OpenCL: kernel argument info not available";
    case CL_INVALID_VALUE: return "OpenCL: invalid value";
    case CL_INVALID_DEVICE_TYPE: return "OpenCL: invalid device type";
    case CL_INVALID_PLATFORM: return "OpenCL: invalid platform";
    case CL_INVALID_DEVICE: return "OpenCL: invalid device";
    case CL_INVALID_CONTEXT: return "OpenCL: invalid context";
    case CL_INVALID_QUEUE_PROPERTIES: return "OpenCL: invalid queue properties";
    case CL_INVALID_COMMAND_QUEUE: return "OpenCL: invalid command queue";
    case CL_INVALID_HOST_PTR: return "OpenCL: invalid host pointer";
    case CL_INVALID_MEM_OBJECT: return "OpenCL: invalid memory object";
    case CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: return "OpenCL: invalid image format descriptor";
    case CL_INVALID_IMAGE_SIZE: return "OpenCL: invalid image size";
    case CL_INVALID_SAMPLER: return "OpenCL: invalid sampler";
    case CL_INVALID_BINARY: return "OpenCL: invalid binary";
    case CL_INVALID_BUILD_OPTIONS: return "OpenCL: invalid build options";
    case CL_INVALID_PROGRAM: return "OpenCL: invalid program";
    case CL_INVALID_PROGRAM_EXECUTABLE: return "OpenCL: invalid program executable";
    case CL_INVALID_KERNEL_NAME: return "OpenCL: invalid kernel name";
    case CL_INVALID_KERNEL_DEFINITION: return "OpenCL: invalid kernel definition";
    case CL_INVALID_KERNEL: return "OpenCL: invalid kernel";
    case CL_INVALID_ARG_INDEX: return "OpenCL: invalid argument index";
    case CL_INVALID_ARG_VALUE: return "OpenCL: invalid argument value";
    case CL_INVALID_ARG_SIZE: return "OpenCL: invalid argument size";
    case CL_INVALID_KERNEL_ARGS: return "OpenCL: invalid kernel arguments";
    case CL_INVALID_WORK_DIMENSION: return "OpenCL: invalid work dimension";
    case CL_INVALID_WORK_GROUP_SIZE: return "OpenCL: invalid work-group size";
    case CL_INVALID_WORK_ITEM_SIZE: return "OpenCL: invalid work-item size";
    case CL_INVALID_GLOBAL_OFFSET: return "OpenCL: invalid global offset";
    case CL_INVALID_EVENT_WAIT_LIST: return "OpenCL: invalid event wait list";
    case CL_INVALID_EVENT: return "OpenCL: invalid event";
    case CL_INVALID_OPERATION: return "OpenCL: invalid operation";
    case CL_INVALID_GL_OBJECT: return "OpenCL: invalid GL object";
    case CL_INVALID_BUFFER_SIZE: return "OpenCL: invalid buffer size";
    case CL_INVALID_MIP_LEVEL: return "OpenCL: invalid mip level";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "OpenCL: invalid global work size";
    case CL_INVALID_PROPERTY: return "OpenCL: invalid property";
    case CL_INVALID_IMAGE_DESCRIPTOR: return "OpenCL: invalid image descriptor";
    case CL_INVALID_COMPILER_OPTIONS: return "OpenCL: invalid compiler options";
    case CL_INVALID_LINKER_OPTIONS: return "OpenCL: invalid linker options";
    case CL_INVALID_DEVICE_PARTITION_COUNT: return "OpenCL: invalid device partition count";
    case -69: return "OpenCL: invalid pipe size";
    case -70: return "OpenCL: invalid device queue";
    case -71: return "OpenCL: invalid spec id";
    case -72: return "OpenCL: max size restriction exceeded";
    default: return "unknown status";
    }
}

const char *oclblas_version(void) { return OCLBLAS_VERSION_STRING; }
