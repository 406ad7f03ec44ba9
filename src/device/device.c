/*
 * Devices: the facts about a device that parameter lookup, legality and the
 * cache key need (read once per device and kept, found again without a
 * lock), the one device selection (OCLBLAS_DEVICE's syntax, shared with
 * oclblas-tune), and the devices of the host-pointer API, each with its
 * own context and queue, chosen once from OCLBLAS_DEVICE (or what the tuner
 * chose) or else the first GPU, accelerator, CPU. OCLBLAS_DEVICE may name
 * several, comma-separated, or `gpus` (every GPU) or `all` (every device):
 * the first is the default device, and large host-pointer SGEMMs spread
 * their tiles over all of them (pipeline.c).
 */
#include "device/device.h"
#include "util/json.h"
#include "util/settings.h"
#include "util/util.h"

#include <CL/cl_ext.h>
#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif

typedef struct info_node {
    oclblas__device_info info;
    struct info_node *next;
} info_node;

static pthread_mutex_t info_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(info_node *) info_list; /* nodes are added at the head, complete, and never removed */

static void lowercase(char *s)
{
    for (; *s; ++s)
        *s = (char)tolower((unsigned char)*s);
}

/* The implementation family decides which kernels run well, more than the
 * chip's maker: PoCL reports the CPU's vendor but compiles its own way. */
static void family_of(const char *platform, const char *vendor, char *out, size_t len)
{
    if (oclblas__strcasestr(platform, "portable computing language") || oclblas__strcasestr(platform, "pocl"))
        oclblas__strlcpy(out, "pocl", len);
    else if (oclblas__strcasestr(vendor, "nvidia"))
        oclblas__strlcpy(out, "nvidia", len);
    else if (oclblas__strcasestr(vendor, "advanced micro devices") || oclblas__strcasestr(vendor, "amd"))
        oclblas__strlcpy(out, "amd", len);
    else if (oclblas__strcasestr(vendor, "intel"))
        oclblas__strlcpy(out, "intel", len);
    else if (oclblas__strcasestr(vendor, "apple"))
        oclblas__strlcpy(out, "apple", len);
    else if (oclblas__strcasestr(vendor, "arm"))
        oclblas__strlcpy(out, "arm", len);
    else {
        oclblas__strlcpy(out, vendor, len);
        lowercase(out);
    }
}

static oclblas_status read_info(cl_device_id dev, oclblas__device_info *d)
{
    memset(d, 0, sizeof *d);
    d->id = dev;
    char vendor[256] = "", version[256] = "", extensions[4096] = "";
    cl_device_type type = 0;
    size_t items[3] = {1, 1, 1};
    cl_ulong local = 0, max_alloc = 0;
    cl_bool unified = CL_FALSE;
    cl_int err = clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof d->platform, &d->platform, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof d->name - 1, d->name, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof d->driver - 1, d->driver, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof d->lim.max_wg_size,
                                    &d->lim.max_wg_size, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof d->compute_units,
                                    &d->compute_units, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    if (!err) err = clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    if (!err) err = clGetPlatformInfo(d->platform, CL_PLATFORM_NAME, sizeof d->platform_name - 1,
                                      d->platform_name, NULL);
    if (err)
        return (oclblas_status)err;
    /* Extensions only decide the architecture name: a long list that does
     * not fit is no error. */
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof extensions - 1, extensions, NULL) != CL_SUCCESS)
        extensions[0] = '\0';
    d->lim.max_item[0] = items[0];
    d->lim.max_item[1] = items[1];
    d->lim.max_item[2] = items[2];
    d->lim.local_mem = local;
    d->max_alloc = max_alloc;
    d->unified_memory = unified == CL_TRUE;
    oclblas__strlcpy(d->type, (type & CL_DEVICE_TYPE_GPU) ? "GPU"
                              : (type & CL_DEVICE_TYPE_CPU) ? "CPU"
                              : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "ACCELERATOR"
                                                                    : "OTHER",
                     sizeof d->type);
    family_of(d->platform_name, vendor, d->vendor, sizeof d->vendor);

    if (strstr(extensions, "cl_nv_device_attribute_query")) {
        cl_uint major = 0, minor = 0;
        if (clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL) == CL_SUCCESS)
        {
            snprintf(d->arch, sizeof d->arch, "SM%u.%u", major, minor);
            d->lim.nv_compute_capability = (int)(10 * major + minor);
        }
    } else if (strcmp(d->vendor, "pocl") == 0) {
        /* "... HSTR: pthread-x86_64-pc-linux-gnu-skylake-avx512": the CPU
         * name follows the five parts of driver and target triple. */
        const char *h = strstr(version, "HSTR: ");
        if (h) {
            h += 6;
            for (int dashes = 0; *h && dashes < 5; ++h)
                if (*h == '-')
                    ++dashes;
            oclblas__strlcpy(d->arch, h, sizeof d->arch);
        }
    } else if (strcmp(d->vendor, "amd") == 0 && strncmp(d->name, "gfx", 3) == 0) {
        oclblas__strlcpy(d->arch, d->name, sizeof d->arch);
    }
    return OCLBLAS_SUCCESS;
}

static const oclblas__device_info *find_info(cl_device_id dev)
{
    for (const info_node *n = atomic_load(&info_list); n; n = n->next)
        if (n->info.id == dev)
            return &n->info;
    return NULL;
}

oclblas_status oclblas__device_info_get(cl_device_id dev, const oclblas__device_info **out)
{
    if (!dev)
        return OCLBLAS_INVALID_ARGUMENT;
    if ((*out = find_info(dev)) != NULL)
        return OCLBLAS_SUCCESS;
    info_node *node = malloc(sizeof *node);
    if (!node)
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    oclblas_status st = read_info(dev, &node->info);
    if (st != OCLBLAS_SUCCESS) {
        free(node);
        return st;
    }
    oclblas__mutex_lock(&info_lock);
    /* Another thread may have added it meanwhile; keep the first. */
    if ((*out = find_info(dev)) != NULL) {
        oclblas__mutex_unlock(&info_lock);
        free(node);
        return OCLBLAS_SUCCESS;
    }
    node->next = atomic_load(&info_list);
    atomic_store(&info_list, node);
    *out = &node->info;
    oclblas__mutex_unlock(&info_lock);
    return OCLBLAS_SUCCESS;
}

/* ---- the default device ------------------------------------------------ */

static pthread_once_t default_once = PTHREAD_ONCE_INIT;

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

int oclblas__type_rank(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU)
        return 0;
    if (t & CL_DEVICE_TYPE_ACCELERATOR)
        return 1;
    if (t & CL_DEVICE_TYPE_CPU)
        return 2;
    return 3;
}

oclblas_status oclblas__device_find(const char *spec, cl_device_id *out, unsigned *platform_index,
                                    unsigned *device_index)
{
    if (spec && !*spec)
        spec = NULL;
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(MAX_PLATFORMS, plats, &np);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || np == 0)
        return spec ? OCLBLAS_DEVICE_NOT_FOUND : OCLBLAS_NO_DEVICE;
    if (err != CL_SUCCESS)
        return (oclblas_status)err;
    if (np > MAX_PLATFORMS)
        np = MAX_PLATFORMS;

    unsigned pi = 0, di = 0;
    char tail = 0;
    const int by_index = spec && sscanf(spec, "%u:%u%c", &pi, &di, &tail) == 2;
    int best_rank = 99, any = 0;
    for (cl_uint p = 0; p < np; ++p) {
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) != CL_SUCCESS)
            continue;
        if (nd > MAX_DEVICES)
            nd = MAX_DEVICES;
        for (cl_uint d = 0; d < nd; ++d) {
            cl_device_type type = 0;
            char name[256] = "";
            clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
            any = 1;
            int match;
            if (!spec)
                match = oclblas__type_rank(type) < best_rank;
            else if (by_index)
                match = p == pi && d == di;
            else if (oclblas__strcaseeq(spec, "gpu"))
                match = (type & CL_DEVICE_TYPE_GPU) != 0;
            else if (oclblas__strcaseeq(spec, "cpu"))
                match = (type & CL_DEVICE_TYPE_CPU) != 0;
            else if (oclblas__strcaseeq(spec, "accelerator"))
                match = (type & CL_DEVICE_TYPE_ACCELERATOR) != 0;
            else
                match = oclblas__strcasestr(name, spec) != NULL;
            if (match) {
                *out = devs[d];
                if (platform_index)
                    *platform_index = p;
                if (device_index)
                    *device_index = d;
                if (spec)
                    return OCLBLAS_SUCCESS;
                best_rank = oclblas__type_rank(type);
            }
        }
    }
    if (!any)
        return spec ? OCLBLAS_DEVICE_NOT_FOUND : OCLBLAS_NO_DEVICE;
    return (!spec && best_rank < 99) ? OCLBLAS_SUCCESS : OCLBLAS_DEVICE_NOT_FOUND;
}

/* What oclblas__default_choose asked for, read once by default_init. */
static pthread_mutex_t choice_lock = PTHREAD_MUTEX_INITIALIZER;
static cl_device_id chosen;
static int default_started;

oclblas_status oclblas__default_choose(cl_device_id dev)
{
    if (!dev)
        return OCLBLAS_INVALID_ARGUMENT;
    oclblas__mutex_lock(&choice_lock);
    const int late = default_started;
    if (!late)
        chosen = dev;
    oclblas__mutex_unlock(&choice_lock);
    return late ? OCLBLAS_INVALID_ARGUMENT : OCLBLAS_SUCCESS;
}

static oclblas__default_device set_devs[OCLBLAS__MAX_SET];
static int set_count;

/* Under default_init: adds a device to the set unless it is in already. */
static void set_add(cl_device_id *ids, int *count, cl_device_id dev)
{
    for (int i = 0; i < *count; ++i)
        if (ids[i] == dev)
            return;
    if (*count < OCLBLAS__MAX_SET)
        ids[(*count)++] = dev;
}

/* Every device of every platform (gpus_only: every GPU). */
static void set_add_every(cl_device_id *ids, int *count, int gpus_only)
{
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, plats, &np) != CL_SUCCESS)
        return;
    for (cl_uint p = 0; p < np && p < MAX_PLATFORMS; ++p) {
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], gpus_only ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) !=
            CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < MAX_DEVICES; ++d)
            set_add(ids, count, devs[d]);
    }
}

/* The devices spec names: one spec of oclblas__device_find, `all`,
 * `gpus`, or a comma-separated list of those. */
static oclblas_status set_find(const char *spec, cl_device_id *ids, int *count)
{
    *count = 0;
    if (!spec || (!strchr(spec, ',') && !oclblas__strcaseeq(spec, "all") && !oclblas__strcaseeq(spec, "gpus"))) {
        oclblas_status st = oclblas__device_find(spec, &ids[0], NULL, NULL);
        if (st == OCLBLAS_SUCCESS)
            *count = 1;
        return st;
    }
    for (const char *p = spec;;) {
        const size_t len = strcspn(p, ",");
        char item[256];
        if (len == 0 || len >= sizeof item)
            return OCLBLAS_DEVICE_NOT_FOUND;
        memcpy(item, p, len);
        item[len] = '\0';
        if (oclblas__strcaseeq(item, "all") || oclblas__strcaseeq(item, "gpus")) {
            const int before = *count;
            set_add_every(ids, count, oclblas__strcaseeq(item, "gpus"));
            if (*count == before)
                return OCLBLAS_DEVICE_NOT_FOUND;
        } else {
            cl_device_id dev;
            oclblas_status st = oclblas__device_find(item, &dev, NULL, NULL);
            if (st != OCLBLAS_SUCCESS)
                return st;
            set_add(ids, count, dev);
        }
        if (!p[len])
            break;
        p += len + 1;
    }
    return OCLBLAS_SUCCESS;
}

/* A device's context and its in-order queue; an error leaves *d empty. */
static oclblas_status open_device(cl_device_id dev, oclblas__default_device *d)
{
    oclblas_status st = oclblas__device_info_get(dev, &d->info);
    if (st != OCLBLAS_SUCCESS)
        return st;
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)d->info->platform, 0};
    d->context = clCreateContext(props, 1, &dev, NULL, NULL, &err);
    if (err == CL_SUCCESS) {
        d->queue = clCreateCommandQueue(d->context, dev, 0, &err);
        if (err != CL_SUCCESS) {
            clReleaseContext(d->context);
            d->context = NULL;
        }
    }
    if (err == CL_SUCCESS)
        d->device = dev;
    d->status = (oclblas_status)err;
    return d->status;
}

static void default_init(void)
{
    oclblas__mutex_lock(&choice_lock);
    default_started = 1;
    const cl_device_id by_choice = chosen;
    const char *spec = by_choice ? NULL : getenv("OCLBLAS_DEVICE");
    oclblas__mutex_unlock(&choice_lock);
    if (spec && !*spec)
        spec = NULL;
    cl_device_id ids[OCLBLAS__MAX_SET] = {by_choice};
    int count = by_choice ? 1 : 0;
    oclblas_status st = by_choice ? OCLBLAS_SUCCESS : set_find(spec, ids, &count);
    if (spec && st != OCLBLAS_SUCCESS)
        oclblas__setting_refused("OCLBLAS_DEVICE", spec, "names no device that can be opened (%s): there is no "
                                 "default device", oclblas_status_string(st));
    if (st == OCLBLAS_SUCCESS)
        st = open_device(ids[0], &set_devs[0]);
    if (st == OCLBLAS_SUCCESS) {
        const oclblas__default_device *d = &set_devs[0];
        oclblas__log("default device: %s (%s, %s %s, platform %s, driver %s)%s%s", d->info->name, d->info->type,
                     d->info->vendor, d->info->arch, d->info->platform_name, d->info->driver,
                     by_choice ? " as chosen" : spec ? " from OCLBLAS_DEVICE=" : "", spec ? spec : "");
        set_count = 1;
        /* The others only add speed: one that cannot be opened is left out. */
        for (int i = 1; i < count; ++i) {
            oclblas__default_device *o = &set_devs[set_count];
            const oclblas_status os = open_device(ids[i], o);
            if (os == OCLBLAS_SUCCESS) {
                oclblas__log("host-pointer device %d: %s (%s, platform %s)", set_count, o->info->name, o->info->type,
                             o->info->platform_name);
                ++set_count;
            } else {
                oclblas__log("a device OCLBLAS_DEVICE names is left out: %s", oclblas_status_string(os));
                memset(o, 0, sizeof *o);
            }
        }
    } else {
        oclblas__log("no default device: %s", oclblas_status_string(st));
        memset(&set_devs[0], 0, sizeof set_devs[0]);
    }
    set_devs[0].status = st;
}

const oclblas__default_device *oclblas__device_set(int *count)
{
    pthread_once(&default_once, default_init);
    *count = set_devs[0].status == OCLBLAS_SUCCESS ? set_count : 0;
    return set_devs;
}

const oclblas__default_device *oclblas__default(void)
{
    pthread_once(&default_once, default_init);
    return &set_devs[0];
}

oclblas_status oclblas_default_device(cl_device_id *device, cl_context *context, cl_command_queue *queue)
{
    const oclblas__default_device *d = oclblas__default();
    if (d->status != OCLBLAS_SUCCESS)
        return d->status;
    if (device)
        *device = d->device;
    if (context)
        *context = d->context;
    if (queue)
        *queue = d->queue;
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas_device_description(cl_device_id device, char *buf, size_t len)
{
    if (!device || !buf || !len)
        return OCLBLAS_INVALID_ARGUMENT;
    const oclblas__device_info *d;
    oclblas_status st = oclblas__device_info_get(device, &d);
    if (st != OCLBLAS_SUCCESS)
        return st;
    /* Room for every character escaped (\u00XX) and the quotes. */
    char name[sizeof d->name * 6 + 2], vendor[sizeof d->vendor * 6 + 2], arch[sizeof d->arch * 6 + 2];
    char out[sizeof name + sizeof vendor + sizeof arch + 128];
    oclblas__json_quote(name, sizeof name, d->name);
    oclblas__json_quote(vendor, sizeof vendor, d->vendor);
    oclblas__json_quote(arch, sizeof arch, d->arch);
    const int n = snprintf(out, sizeof out,
                           "{\"vendor\": %s, \"type\": \"%s\", \"architecture\": %s, \"name\": %s}", vendor,
                           d->type, arch, name);
    if (n < 0 || (size_t)n >= len)
        return OCLBLAS_INVALID_ARGUMENT;
    memcpy(buf, out, (size_t)n + 1);
    return OCLBLAS_SUCCESS;
}
