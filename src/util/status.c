/*
 * The name and the sentence of every status: the library's own, from
 * OCLBLAS_STATUS_LIST in oclblas.h (where the enum comes from too), and the
 * OpenCL error codes that pass through unchanged, from the list below.
 */
#include "util/util.h"

/* Codes of OpenCL 2.x that the 1.2 headers do not define; an implementation
 * of a later version may still return them. */
#ifndef CL_INVALID_PIPE_SIZE
#define CL_INVALID_PIPE_SIZE -69
#endif
#ifndef CL_INVALID_DEVICE_QUEUE
#define CL_INVALID_DEVICE_QUEUE -70
#endif
#ifndef CL_INVALID_SPEC_ID
#define CL_INVALID_SPEC_ID -71
#endif
#ifndef CL_MAX_SIZE_RESTRICTION_EXCEEDED
#define CL_MAX_SIZE_RESTRICTION_EXCEEDED -72
#endif

/* X(name, message): every OpenCL error code, -1 to -72. */
#define OPENCL_STATUS_LIST(X) \
    X(CL_DEVICE_NOT_FOUND, "device not found") \
    X(CL_DEVICE_NOT_AVAILABLE, "device not available") \
    X(CL_COMPILER_NOT_AVAILABLE, "compiler not available") \
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE, "memory object allocation failure") \
    X(CL_OUT_OF_RESOURCES, "out of resources") \
    X(CL_OUT_OF_HOST_MEMORY, "out of host memory") \
    X(CL_PROFILING_INFO_NOT_AVAILABLE, "profiling info not available") \
    X(CL_MEM_COPY_OVERLAP, "memory copy overlap") \
    X(CL_IMAGE_FORMAT_MISMATCH, "image format mismatch") \
    X(CL_IMAGE_FORMAT_NOT_SUPPORTED, "image format not supported") \
    X(CL_BUILD_PROGRAM_FAILURE, "build program failure") \
    X(CL_MAP_FAILURE, "map failure") \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned sub-buffer offset") \
    X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "error status in an event of the wait list") \
    X(CL_COMPILE_PROGRAM_FAILURE, "compile program failure") \
    X(CL_LINKER_NOT_AVAILABLE, "linker not available") \
    X(CL_LINK_PROGRAM_FAILURE, "link program failure") \
    X(CL_DEVICE_PARTITION_FAILED, "device partition failed") \
    X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "kernel argument info not available") \
    X(CL_INVALID_VALUE, "invalid value") \
    X(CL_INVALID_DEVICE_TYPE, "invalid device type") \
    X(CL_INVALID_PLATFORM, "invalid platform") \
    X(CL_INVALID_DEVICE, "invalid device") \
    X(CL_INVALID_CONTEXT, "invalid context") \
    X(CL_INVALID_QUEUE_PROPERTIES, "invalid queue properties") \
    X(CL_INVALID_COMMAND_QUEUE, "invalid command queue") \
    X(CL_INVALID_HOST_PTR, "invalid host pointer") \
    X(CL_INVALID_MEM_OBJECT, "invalid memory object") \
    X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "invalid image format descriptor") \
    X(CL_INVALID_IMAGE_SIZE, "invalid image size") \
    X(CL_INVALID_SAMPLER, "invalid sampler") \
    X(CL_INVALID_BINARY, "invalid binary") \
    X(CL_INVALID_BUILD_OPTIONS, "invalid build options") \
    X(CL_INVALID_PROGRAM, "invalid program") \
    X(CL_INVALID_PROGRAM_EXECUTABLE, "invalid program executable") \
    X(CL_INVALID_KERNEL_NAME, "invalid kernel name") \
    X(CL_INVALID_KERNEL_DEFINITION, "invalid kernel definition") \
    X(CL_INVALID_KERNEL, "invalid kernel") \
    X(CL_INVALID_ARG_INDEX, "invalid argument index") \
    X(CL_INVALID_ARG_VALUE, "invalid argument value") \
    X(CL_INVALID_ARG_SIZE, "invalid argument size") \
    X(CL_INVALID_KERNEL_ARGS, "invalid kernel arguments") \
    X(CL_INVALID_WORK_DIMENSION, "invalid work dimension") \
    X(CL_INVALID_WORK_GROUP_SIZE, "invalid work-group size") \
    X(CL_INVALID_WORK_ITEM_SIZE, "invalid work-item size") \
    X(CL_INVALID_GLOBAL_OFFSET, "invalid global offset") \
    X(CL_INVALID_EVENT_WAIT_LIST, "invalid event wait list") \
    X(CL_INVALID_EVENT, "invalid event") \
    X(CL_INVALID_OPERATION, "invalid operation") \
    X(CL_INVALID_GL_OBJECT, "invalid GL object") \
    X(CL_INVALID_BUFFER_SIZE, "invalid buffer size") \
    X(CL_INVALID_MIP_LEVEL, "invalid mip level") \
    X(CL_INVALID_GLOBAL_WORK_SIZE, "invalid global work size") \
    X(CL_INVALID_PROPERTY, "invalid property") \
    X(CL_INVALID_IMAGE_DESCRIPTOR, "invalid image descriptor") \
    X(CL_INVALID_COMPILER_OPTIONS, "invalid compiler options") \
    X(CL_INVALID_LINKER_OPTIONS, "invalid linker options") \
    X(CL_INVALID_DEVICE_PARTITION_COUNT, "invalid device partition count") \
    X(CL_INVALID_PIPE_SIZE, "invalid pipe size") \
    X(CL_INVALID_DEVICE_QUEUE, "invalid device queue") \
    X(CL_INVALID_SPEC_ID, "invalid spec id") \
    X(CL_MAX_SIZE_RESTRICTION_EXCEEDED, "max size restriction exceeded")

const char *oclblas_status_string(oclblas_status status)
{
    switch ((int)status) {
#define LIBRARY_MESSAGE(name, value, message) case name: return message;
        OCLBLAS_STATUS_LIST(LIBRARY_MESSAGE)
#undef LIBRARY_MESSAGE
#define OPENCL_MESSAGE(name, message) case name: return "OpenCL: " message;
        OPENCL_STATUS_LIST(OPENCL_MESSAGE)
#undef OPENCL_MESSAGE
    default: return "unknown status";
    }
}

const char *oclblas_status_name(oclblas_status status)
{
    switch ((int)status) {
#define LIBRARY_NAME(name, value, message) case name: return #name;
        OCLBLAS_STATUS_LIST(LIBRARY_NAME)
#undef LIBRARY_NAME
#define OPENCL_NAME(name, message) case name: return #name;
        OPENCL_STATUS_LIST(OPENCL_NAME)
#undef OPENCL_NAME
    default: return "unknown";
    }
}

const char *oclblas_version(void) { return OCLBLAS_VERSION_STRING; }
