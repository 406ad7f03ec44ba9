/*
 * Parameter lookup. For a device and a kernel the parameters come from the
 * most specific database entry that covers the kernel, trying in order an
 * entry for the device's name, for its architecture, for its vendor (and
 * type), for its type, and the global default; at each level entries loaded
 * at run time (OCLBLAS_DATABASE, oclblas_database_load; the newest first)
 * win over the compiled-in ones (OCLBLAS_DATABASE_HIDE hides the compiled-in
 * entries of the most specific levels, so that a tuned device can be served
 * as one nobody tuned). An entry whose parameters this particular
 * device cannot run (work-group or local memory limits) is passed over.
 * The entry that covers a kernel first also gives its classes of shapes
 * (an entry with classes but no set for every shape takes that set from
 * the next entry that has one); a class set the device cannot run is
 * passed over alone. Overrides from oclblas_override_params are applied on
 * top of every set, first those for every device, then those for this
 * device, each only where the resulting set is legal on the device.
 * Devices resolve every table once
 * into their context (oclblas__devctx_resolve) and keep it until the
 * generation counter says that a load or an override changed something.
 * A set keeps the rate (and the shares of it along k) its entry measured
 * for it unless an override changed it; the facts of the cost model come
 * from the most specific entry that has them.
 */
#include "db/db.h"
#include "device/device.h"
#include "util/settings.h"
#include "util/util.h"

#include <dirent.h>
#include <stdatomic.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct override {
    cl_device_id device; /* NULL: every device */
    int kernel;
    char *text;
    struct override *next;
} override;

static pthread_mutex_t db_lock = PTHREAD_MUTEX_INITIALIZER;
static oclblas__db_entry *runtime_entries; /* in load order */
static size_t runtime_count;
static override *overrides;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static atomic_uint generation = 1; /* grows with every load and override */
/* Compiled-in entries at levels below this one (0 device name, 1
 * architecture, 2 vendor) are passed over: OCLBLAS_DATABASE_HIDE. */
static int hidden_levels;

/* ---- loading ----------------------------------------------------------- */

/* A file that entries were loaded from, known by its path (links
 * resolved) and by its device and inode: loading it again, by the same
 * path, through a link, or by a hard link, replaces what it gave before
 * instead of adding to it. A file replaced by a new one at the same path
 * (as the tuner writes them) is the same source. */
typedef struct {
    dev_t dev;
    ino_t ino;
    char *path;
} source;

static source *sources; /* under db_lock, like the entries */
static size_t source_count;
static size_t *runtime_source; /* runtime_entries[i] came from sources[runtime_source[i]] */

/* Folders deeper than this below the loaded path are not read. */
#define MAX_FOLDER_DEPTH 8

typedef struct {
    dev_t dev;
    ino_t ino;
    char *path;
    oclblas__db_entry *items;
    size_t count;
} loaded_file;

/* One call's files, and every folder and file it has read: each is read
 * once, so that links back to a folder on the path (a loop) or several
 * links to one folder cost nothing. */
typedef struct {
    loaded_file *files;
    size_t file_count;
    struct file_id {
        dev_t dev;
        ino_t ino;
    } *seen;
    size_t seen_count;
} load;

static void load_free(load *l)
{
    for (size_t i = 0; i < l->file_count; ++i) {
        free(l->files[i].path);
        free(l->files[i].items);
    }
    free(l->files);
    free(l->seen);
}

/* 1 when (dev, ino) was read before in this load; else remembers it. -1: out of memory. */
static int seen_before(load *l, const struct stat *sb)
{
    for (size_t i = 0; i < l->seen_count; ++i)
        if (l->seen[i].dev == sb->st_dev && l->seen[i].ino == sb->st_ino)
            return 1;
    struct file_id *grown = realloc(l->seen, (l->seen_count + 1) * sizeof *grown);
    if (!grown)
        return -1;
    l->seen = grown;
    l->seen[l->seen_count++] = (struct file_id){sb->st_dev, sb->st_ino};
    return 0;
}

static oclblas_status load_file(load *l, int dir, const char *name, const char *path)
{
    char *text;
    size_t len;
    struct stat sb;
    char why[160];
    const int e = oclblas__read_file(dir, name, 0, OCLBLAS__DB_MAX_FILE, &text, &len, &sb, why, sizeof why);
    if (e) {
        oclblas__log("database: cannot read %s: %s", path, why);
        return e == ENOMEM ? OCLBLAS_OUT_OF_HOST_MEMORY : OCLBLAS_DATABASE_FILE_ERROR;
    }
    const int seen = seen_before(l, &sb);
    if (seen) {
        free(text);
        if (seen > 0)
            oclblas__log("database: %s: read already in this load, through another link", path);
        return seen > 0 ? OCLBLAS_SUCCESS : OCLBLAS_OUT_OF_HOST_MEMORY;
    }
    oclblas__db_entry *es;
    size_t n;
    char err[512];
    oclblas_status st = oclblas__db_parse(text, len, path, &es, &n, err, sizeof err);
    free(text);
    if (st != OCLBLAS_SUCCESS) {
        oclblas__log("database: refused %s", err);
        return st;
    }
    loaded_file *grown = realloc(l->files, (l->file_count + 1) * sizeof *grown);
    /* The file's path with every link resolved: the same whichever link it was loaded through. */
    char *copy = realpath(path, NULL);
    if (!copy)
        copy = strdup(path);
    if (!grown || !copy) {
        if (grown)
            l->files = grown;
        free(copy);
        free(es);
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    }
    l->files = grown;
    l->files[l->file_count++] = (loaded_file){sb.st_dev, sb.st_ino, copy, es, n};
    return OCLBLAS_SUCCESS;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_json_name(const char *name)
{
    const size_t len = strlen(name);
    return len > 5 && strcmp(name + len - 5, ".json") == 0;
}

/* Reads the folder open at fd (taken over) and below: its *.json files and
 * subfolders, in name order, so that the order of entries (and which wins)
 * does not depend on the file system. Everything is opened relative to the
 * folder's descriptor, without blocking. */
static oclblas_status load_folder(load *l, int fd, const char *path, int depth)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        oclblas__log("database: cannot read %s: %s", path, strerror(errno));
        close(fd);
        return OCLBLAS_DATABASE_FILE_ERROR;
    }
    const int seen = seen_before(l, &sb);
    if (seen) {
        close(fd);
        if (seen > 0)
            oclblas__log("database: %s: read already in this load (a link back to a folder on the path, or a second "
                         "link to one)", path);
        return seen > 0 ? OCLBLAS_SUCCESS : OCLBLAS_OUT_OF_HOST_MEMORY;
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        oclblas__log("database: cannot read %s: %s", path, strerror(errno));
        close(fd);
        return OCLBLAS_DATABASE_FILE_ERROR;
    }
    char **names = NULL;
    size_t n = 0;
    oclblas_status st = OCLBLAS_SUCCESS;
    struct dirent *de;
    while (st == OCLBLAS_SUCCESS && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char *name = strdup(de->d_name);
        char **grown = realloc(names, (n + 1) * sizeof *grown);
        if (grown)
            names = grown;
        if (!name || !grown) {
            free(name);
            st = OCLBLAS_OUT_OF_HOST_MEMORY;
            break;
        }
        names[n++] = name;
    }
    if (n)
        qsort(names, n, sizeof *names, name_cmp);
    const int dfd = dirfd(d);
    for (size_t i = 0; i < n && st == OCLBLAS_SUCCESS; ++i) {
        const size_t len = strlen(path) + strlen(names[i]) + 2;
        char *full = malloc(len);
        if (!full) {
            st = OCLBLAS_OUT_OF_HOST_MEMORY;
            break;
        }
        snprintf(full, len, "%s/%s", path, names[i]);
        struct stat cs;
        if (fstatat(dfd, names[i], &cs, 0) != 0) {
            /* A dangling link, or gone since the listing: not part of the database. */
        } else if (S_ISDIR(cs.st_mode)) {
            if (depth >= MAX_FOLDER_DEPTH) {
                oclblas__log("database: %s: deeper than %d folders, not read", full, MAX_FOLDER_DEPTH);
            } else {
                const int sub = openat(dfd, names[i], O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
                if (sub < 0) {
                    oclblas__log("database: cannot read %s: %s", full, strerror(errno));
                    st = OCLBLAS_DATABASE_FILE_ERROR;
                } else {
                    st = load_folder(l, sub, full, depth + 1);
                }
            }
        } else if (is_json_name(names[i])) {
            /* Whatever it is: a FIFO or a device named *.json is refused there, not skipped. */
            st = load_file(l, dfd, names[i], full);
        }
        free(full);
    }
    for (size_t i = 0; i < n; ++i)
        free(names[i]);
    free(names);
    closedir(d);
    return st;
}

static oclblas_status load_path(load *l, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        oclblas__log("database: cannot read %s: %s", path, strerror(errno));
        return OCLBLAS_DATABASE_FILE_ERROR;
    }
    if (!S_ISDIR(sb.st_mode))
        return load_file(l, AT_FDCWD, path, path);
    const int fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        oclblas__log("database: cannot read %s: %s", path, strerror(errno));
        return OCLBLAS_DATABASE_FILE_ERROR;
    }
    return load_folder(l, fd, path, 0);
}

/* The source that f was loaded from before (same path, or same file), or source_count. */
static size_t find_source(const source *list, size_t count, const loaded_file *f)
{
    for (size_t i = 0; i < count; ++i)
        if ((list[i].dev == f->dev && list[i].ino == f->ino) || strcmp(list[i].path, f->path) == 0)
            return i;
    return count;
}

/* Makes the load's entries visible, each file's replacing what it gave
 * before; all or nothing (the old state stays when memory runs out). */
static oclblas_status commit(load *l, size_t *added, size_t *replaced)
{
    size_t total = 0;
    for (size_t f = 0; f < l->file_count; ++f)
        total += l->files[f].count;
    oclblas__mutex_lock(&db_lock);
    source *ns = malloc((source_count + l->file_count + 1) * sizeof *ns);
    size_t *src_of = malloc((l->file_count + 1) * sizeof *src_of);
    unsigned char *dropped = calloc(source_count + l->file_count + 1, 1);
    char **new_paths = calloc(l->file_count + 1, sizeof *new_paths);
    oclblas__db_entry *ne = malloc((runtime_count + total + 1) * sizeof *ne);
    size_t *nsrc = malloc((runtime_count + total + 1) * sizeof *nsrc);
    int ok = ns && src_of && dropped && new_paths && ne && nsrc;
    size_t ns_count = source_count;
    if (ok) {
        if (source_count)
            memcpy(ns, sources, source_count * sizeof *ns);
        for (size_t f = 0; f < l->file_count && ok; ++f) {
            const loaded_file *lf = &l->files[f];
            const size_t i = find_source(ns, ns_count, lf);
            src_of[f] = i;
            if (i < ns_count && (i >= source_count || dropped[i]))
                continue; /* matched by another file of this load already (a hard link and a path) */
            /* The path and inode the file has now: a later load by either finds it. */
            new_paths[f] = strdup(lf->path);
            if (!(ok = new_paths[f] != NULL))
                break;
            ns[i] = (source){lf->dev, lf->ino, new_paths[f]};
            if (i == ns_count)
                ++ns_count;
            else
                dropped[i] = 1;
        }
    }
    if (!ok) {
        oclblas__mutex_unlock(&db_lock);
        for (size_t f = 0; new_paths && f < l->file_count; ++f)
            free(new_paths[f]);
        free(ns);
        free(src_of);
        free(dropped);
        free(new_paths);
        free(ne);
        free(nsrc);
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    }
    size_t n = 0;
    for (size_t i = 0; i < runtime_count; ++i) {
        if (dropped[runtime_source[i]]) {
            ++*replaced;
            continue;
        }
        ne[n] = runtime_entries[i];
        nsrc[n++] = runtime_source[i];
    }
    for (size_t f = 0; f < l->file_count; ++f) {
        if (l->files[f].count)
            memcpy(ne + n, l->files[f].items, l->files[f].count * sizeof *ne);
        for (size_t j = 0; j < l->files[f].count; ++j)
            nsrc[n++] = src_of[f];
    }
    *added = total;
    /* The paths of the sources replaced go with the old array. */
    for (size_t i = 0; i < source_count; ++i)
        if (ns[i].path != sources[i].path)
            free(sources[i].path);
    free(sources);
    free(runtime_entries);
    free(runtime_source);
    sources = ns;
    source_count = ns_count;
    runtime_entries = ne;
    runtime_source = nsrc;
    runtime_count = n;
    oclblas__mutex_unlock(&db_lock);
    free(src_of);
    free(dropped);
    free(new_paths);
    return OCLBLAS_SUCCESS;
}

/* All or nothing: entries become visible only when every file was good. */
static oclblas_status load_all(const char *path)
{
    load l = {0};
    oclblas_status st = load_path(&l, path);
    size_t added = 0, replaced = 0;
    if (st == OCLBLAS_SUCCESS)
        st = commit(&l, &added, &replaced);
    if (st == OCLBLAS_SUCCESS)
        oclblas__log("database: loaded %zu entr%s from %s%s", added, added == 1 ? "y" : "ies", path,
                     replaced ? " (replacing what these files gave before)" : "");
    load_free(&l);
    return st;
}

/* OCLBLAS_DATABASE_HIDE: "device" hides the compiled-in entries for the
 * device's name and architecture, "vendor" those for its vendor too; the
 * entries for its type and the global default always serve. */
static void hide_init(void)
{
    static const int levels[] = {0, 2, 3}; /* none, device, vendor */
    hidden_levels = levels[oclblas__settings_get()->database_hide];
}

static void env_init(void)
{
    hide_init();
    const char *env = getenv("OCLBLAS_DATABASE");
    if (!env || !*env)
        return;
    char *copy = strdup(env);
    if (!copy)
        return;
    oclblas_status st;
    /* A bad path costs its entries only; oclblas_settings_error says why. */
    for (char *save = NULL, *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save))
        if ((st = load_all(p)) != OCLBLAS_SUCCESS)
            oclblas__setting_refused("OCLBLAS_DATABASE", p, "cannot be loaded (%s): its entries are left out",
                                     oclblas_status_string(st));
    free(copy);
}

oclblas_status oclblas_database_load(const char *path)
{
    if (!path || !*path)
        return OCLBLAS_INVALID_ARGUMENT;
    pthread_once(&env_once, env_init);
    const oclblas_status st = load_all(path);
    if (st == OCLBLAS_SUCCESS)
        atomic_fetch_add(&generation, 1);
    return st;
}

int oclblas__db_hidden_levels(void)
{
    pthread_once(&env_once, env_init);
    return hidden_levels;
}

size_t oclblas__db_runtime_count(void)
{
    pthread_once(&env_once, env_init);
    oclblas__mutex_lock(&db_lock);
    const size_t n = runtime_count;
    oclblas__mutex_unlock(&db_lock);
    return n;
}

/* ---- lookup ------------------------------------------------------------ */

/* The level (0 most specific) at which an entry applies to a device, or -1. */
static int match_level(const oclblas__db_entry *e, const oclblas__device_info *d)
{
    if (e->vendor[0] && !oclblas__strcaseeq(e->vendor, d->vendor))
        return -1;
    if (e->type[0] && strcmp(e->type, d->type) != 0)
        return -1;
    if (e->name[0])
        return oclblas__strcaseeq(e->name, d->name) ? 0 : -1;
    if (e->arch[0])
        return d->arch[0] && oclblas__strcaseeq(e->arch, d->arch) ? 1 : -1;
    if (e->vendor[0])
        return 2;
    if (e->type[0])
        return 3;
    return 4;
}

static const char *const level_names[] = {"device name", "architecture", "vendor", "device type",
                                          "global default"};

/* The verbose log names each (device, kernel, parameters, origin) once, not on every refresh. */
typedef struct logged {
    cl_device_id dev;
    int kernel;
    oclblas__params p;
    char from[400];
    struct logged *next;
} logged;
static logged *logged_list;

static void log_once(const oclblas__device_info *dev, int kernel, const oclblas__params *p, const char *from)
{
    for (const logged *l = logged_list; l; l = l->next)
        if (l->dev == dev->id && l->kernel == kernel && !memcmp(&l->p, p, sizeof *p) && !strcmp(l->from, from))
            return;
    logged *l = malloc(sizeof *l);
    if (!l)
        return;
    l->dev = dev->id;
    l->kernel = kernel;
    l->p = *p;
    oclblas__strlcpy(l->from, from, sizeof l->from);
    l->next = logged_list;
    logged_list = l;
    char text[512];
    oclblas__params_format(kernel, p, text, sizeof text);
    oclblas__log("database: %s on %s: %s from %s", oclblas__kernels[kernel]->name, dev->name, text, from);
}

static int try_entry(const oclblas__db_entry *e, int level, const oclblas__device_info *dev, int kernel,
                     oclblas__params *out, char *from, size_t from_len, int builtin)
{
    oclblas__params p;
    memcpy(p.v, e->values[kernel], sizeof p.v);
    const char *why;
    if (!oclblas__params_legal(kernel, &p, &dev->lim, &why)) {
        oclblas__log("database: %s entry %s skipped for %s on %s: %s", oclblas__kernels[kernel]->name, e->origin,
                     level_names[level], dev->name, why);
        return 0;
    }
    *out = p;
    if (from)
        snprintf(from, from_len, "%s%s (%s match)", builtin ? "compiled-in " : "", e->origin, level_names[level]);
    return 1;
}

/* The entries in the order of the lookup at one level: those loaded at run
 * time, newest first, then the compiled-in ones. */
static const oclblas__db_entry *nth_entry(size_t i, int *builtin)
{
    *builtin = i >= runtime_count;
    return *builtin ? &oclblas__db_builtin[i - runtime_count] : &runtime_entries[runtime_count - 1 - i];
}

static int classes_cover(const oclblas__db_entry *e, int kernel)
{
    for (int c = 0; c < e->num_classes; ++c)
        if (e->classes[c].has & (1u << kernel))
            return 1;
    return 0;
}

/* Where a kernel's sets come from: the first entry in the lookup order
 * that covers the kernel gives its classes and its set for every shape; an
 * entry without the latter takes it from the next entry that has one (in
 * the end, the global default). An entry whose set for every shape this
 * device cannot run is passed over, its classes with it. The compiled-in
 * global entry covers every table (the build refuses a database without
 * it), so only a device that cannot run even that has no set. */
typedef struct {
    oclblas__params base;
    const oclblas__db_entry *base_entry;
    char from[400];
    const oclblas__db_entry *classes; /* NULL: none */
    char classes_from[300];
} kernel_sets;

static oclblas_status sets_locked(const oclblas__device_info *dev, int kernel, kernel_sets *out)
{
    out->classes = NULL;
    out->base_entry = NULL;
    const size_t total = runtime_count + oclblas__db_builtin_count;
    for (int level = 0; level <= 4; ++level) {
        for (size_t i = 0; i < total; ++i) {
            int builtin;
            const oclblas__db_entry *e = nth_entry(i, &builtin);
            if (match_level(e, dev) != level || (builtin && level < hidden_levels))
                continue;
            const int has_classes = classes_cover(e, kernel);
            if (e->has & (1u << kernel)) {
                if (!try_entry(e, level, dev, kernel, &out->base, out->from, sizeof out->from, builtin))
                    continue;
                out->base_entry = e;
            } else if (!has_classes) {
                continue;
            }
            if (has_classes && !out->classes) {
                out->classes = e;
                snprintf(out->classes_from, sizeof out->classes_from, "%s%s (%s match)", builtin ? "compiled-in " : "",
                         e->origin, level_names[level]);
            }
            if (e->has & (1u << kernel))
                return OCLBLAS_SUCCESS;
        }
    }
    oclblas__log("database: no %s entry that %s can run", oclblas__kernels[kernel]->name, dev->name);
    oclblas__strlcpy(out->from, "no entry this device can run", sizeof out->from);
    out->classes = NULL;
    return OCLBLAS_INVALID_PARAMS;
}

/* The database's set for every shape, before overrides. */
static oclblas_status entry_locked(const oclblas__device_info *dev, int kernel, oclblas__params *out, char *from,
                                   size_t from_len)
{
    kernel_sets ks;
    const oclblas_status st = sets_locked(dev, kernel, &ks);
    *out = ks.base;
    if (from)
        oclblas__strlcpy(from, ks.from, from_len);
    return st;
}

static const char *override_text(cl_device_id device, int kernel, const override *extra)
{
    if (extra && extra->device == device && extra->kernel == kernel)
        return extra->text; /* about to replace the one in the list */
    for (const override *o = overrides; o; o = o->next)
        if (o->device == device && o->kernel == kernel)
            return o->text;
    return NULL;
}

/* The overrides on top of one set: the one for every device, then the
 * device's own. An override whose result this device cannot run is passed over, so that
 * every set in force is legal where it is used. Returns whether one applied. */
static int apply_overrides(const oclblas__device_info *dev, int kernel, oclblas__params *set, const char *cls)
{
    int applied = 0;
    for (int pass = 0; pass < 2; ++pass) {
        const char *text = override_text(pass ? dev->id : NULL, kernel, NULL);
        if (!text)
            continue;
        oclblas__params p = *set;
        const char *why = "the override does not parse";
        if (oclblas__params_parse(kernel, text, &p, NULL) == OCLBLAS_SUCCESS &&
            oclblas__params_legal(kernel, &p, &dev->lim, &why)) {
            *set = p;
            applied = 1;
        } else {
            oclblas__log("database: override of %s%s passed over on %s%s%s: %s", oclblas__kernels[kernel]->name,
                         pass ? "" : " for every device", dev->name, cls ? " for class " : "", cls ? cls : "", why);
        }
    }
    return applied;
}

/* Every set of a kernel in force on a device: the set for every shape, and
 * the classes' sets, each class's parameters on top of that set (before
 * its overrides), then the overrides on each. A class set this device
 * cannot run is passed over. */
static oclblas_status resolve_kernel_locked(const oclblas__device_info *dev, int kernel, oclblas__devctx *cx)
{
    kernel_sets ks;
    cx->num_classes[kernel] = 0;
    cx->status[kernel] = sets_locked(dev, kernel, &ks);
    if (cx->status[kernel] != OCLBLAS_SUCCESS)
        return cx->status[kernel];
    cx->params[kernel] = ks.base;
    for (int c = 0; ks.classes && c < ks.classes->num_classes; ++c) {
        const oclblas__db_class *dc = &ks.classes->classes[c];
        if (!(dc->has & (1u << kernel)))
            continue;
        oclblas__params p = ks.base;
        for (int i = 0; i < OCLBLAS__MAX_PARAMS; ++i)
            if (dc->given[kernel] & (1u << i))
                p.v[i] = dc->values[kernel][i];
        const char *why;
        if (!oclblas__params_legal(kernel, &p, &dev->lim, &why)) {
            oclblas__log("database: %s class %s of %s skipped on %s: %s", oclblas__kernels[kernel]->name,
                         dc->cls.name, ks.classes_from, dev->name, why);
            continue;
        }
        oclblas__class_set *cs = &cx->classes[kernel][cx->num_classes[kernel]++];
        cs->cls = dc->cls;
        cs->params = p;
        const int over = apply_overrides(dev, kernel, &cs->params, dc->cls.name);
        cs->rate = over ? 0 : dc->rates[kernel];
        for (int i = 0; i < 2; ++i)
            cs->along_k[i] = over ? 0 : dc->along_k[kernel][i];
        for (int i = 0; i < 3; ++i)
            cs->peeled[i] = over ? 0 : dc->peeled[kernel][i];
        cs->resident = over ? 0 : dc->resident[kernel];
        if (oclblas__verbose()) {
            char rule[256], where[400 + 256 + 64];
            oclblas__class_format(&dc->cls, rule, sizeof rule);
            snprintf(where, sizeof where, "class %s (%s) of %s%s", dc->cls.name, rule[0] ? rule : "every shape",
                     ks.classes_from, over ? " with overrides" : "");
            log_once(dev, kernel, &cs->params, where);
        }
    }
    const int over = apply_overrides(dev, kernel, &cx->params[kernel], NULL);
    cx->rate[kernel] = over ? 0 : ks.base_entry->rates[kernel];
    for (int i = 0; i < 2; ++i)
        cx->along_k[kernel][i] = over ? 0 : ks.base_entry->along_k[kernel][i];
    for (int i = 0; i < 3; ++i)
        cx->peeled[kernel][i] = over ? 0 : ks.base_entry->peeled[kernel][i];
    cx->resident[kernel] = over ? 0 : ks.base_entry->resident[kernel];
    if (oclblas__verbose()) {
        const size_t used = strlen(ks.from);
        if (over)
            oclblas__strlcpy(ks.from + used, " with overrides", sizeof ks.from - used);
        log_once(dev, kernel, &cx->params[kernel], ks.from);
    }
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas__db_lookup(const oclblas__device_info *dev, int kernel, oclblas__params *out, char *from,
                                  size_t from_len)
{
    pthread_once(&env_once, env_init);
    kernel_sets ks;
    oclblas__mutex_lock(&db_lock);
    oclblas_status st = sets_locked(dev, kernel, &ks);
    if (st == OCLBLAS_SUCCESS) {
        *out = ks.base;
        const size_t used = strlen(ks.from);
        if (apply_overrides(dev, kernel, out, NULL))
            oclblas__strlcpy(ks.from + used, " with overrides", sizeof ks.from - used);
        if (oclblas__verbose())
            log_once(dev, kernel, out, ks.from);
    }
    oclblas__mutex_unlock(&db_lock);
    /* The classes that have sets of their own, by name. */
    for (int c = 0; st == OCLBLAS_SUCCESS && ks.classes && c < ks.classes->num_classes; ++c) {
        if (!(ks.classes->classes[c].has & (1u << kernel)))
            continue;
        const size_t used = strlen(ks.from);
        snprintf(ks.from + used, sizeof ks.from - used, "%s%s", strstr(ks.from, ", and classes ") ? ", " : ", and classes ",
                 ks.classes->classes[c].cls.name);
    }
    if (from)
        oclblas__strlcpy(from, ks.from, from_len);
    return st;
}

unsigned oclblas__db_generation(void) { return atomic_load(&generation); }

/* The facts of the cost model: from the most specific entry for the device that has them. */
static void model_locked(const oclblas__device_info *dev, oclblas__model_device *out)
{
    const size_t total = runtime_count + oclblas__db_builtin_count;
    for (int level = 0; level <= 4; ++level)
        for (size_t i = 0; i < total; ++i) {
            int builtin;
            const oclblas__db_entry *e = nth_entry(i, &builtin);
            if (e->has_model && match_level(e, dev) == level) {
                *out = e->model;
                out->compute_units = dev->compute_units;
                return;
            }
        }
}

oclblas_status oclblas__devctx_resolve(const oclblas__device_info *dev, oclblas__devctx *out)
{
    pthread_once(&env_once, env_init);
    memset(out, 0, sizeof *out);
    out->dev = dev;
    /* Read before resolving: a change meanwhile makes the next call resolve again. */
    out->generation = atomic_load(&generation);
    oclblas__mutex_lock(&db_lock);
    for (int k = 0; k < OCLBLAS__K_COUNT; ++k)
        resolve_kernel_locked(dev, k, out);
    model_locked(dev, &out->model);
    oclblas__mutex_unlock(&db_lock);
    return OCLBLAS_SUCCESS;
}

/* ---- overrides --------------------------------------------------------- */

oclblas_status oclblas_override_params(cl_device_id device, const char *kernel, const char *params)
{
    const int k = oclblas__kernel_by_name(kernel);
    if (k < 0)
        return OCLBLAS_UNKNOWN_KERNEL;
    pthread_once(&env_once, env_init);
    const int remove = !params || !*params;
    if (!remove) {
        /* Every value named must be in its range and every rule that reads
         * only named parameters must hold, whatever the set is applied to:
         * nothing illegal is stored, for one device or for all. */
        oclblas__params named = {{0}};
        unsigned given = 0;
        oclblas_status st = oclblas__params_parse(k, params, &named, &given);
        if (st != OCLBLAS_SUCCESS)
            return st;
        const char *why;
        if (!oclblas__params_legal_partial(k, &named, given, given, NULL, &why)) {
            oclblas__log("override of %s refused: %s", kernel, why);
            return OCLBLAS_INVALID_PARAMS;
        }
        if (device) {
            /* For one device the resulting set is known: it must be legal there. */
            const oclblas__device_info *dev;
            st = oclblas__device_info_get(device, &dev);
            if (st != OCLBLAS_SUCCESS)
                return st;
            oclblas__params merged;
            oclblas__mutex_lock(&db_lock);
            st = entry_locked(dev, k, &merged, NULL, 0);
            const char *every = override_text(NULL, k, NULL);
            if (st == OCLBLAS_SUCCESS && every) {
                oclblas__params p = merged;
                if (oclblas__params_parse(k, every, &p, NULL) == OCLBLAS_SUCCESS &&
                    oclblas__params_legal(k, &p, &dev->lim, NULL))
                    merged = p;
            }
            oclblas__mutex_unlock(&db_lock);
            if (st == OCLBLAS_SUCCESS)
                st = oclblas__params_parse(k, params, &merged, NULL);
            if (st != OCLBLAS_SUCCESS)
                return st;
            if (!oclblas__params_legal(k, &merged, &dev->lim, &why)) {
                oclblas__log("override of %s refused: %s", kernel, why);
                return OCLBLAS_INVALID_PARAMS;
            }
        }
    }
    char *text = remove ? NULL : strdup(params);
    if (!remove && !text)
        return OCLBLAS_OUT_OF_HOST_MEMORY;
    oclblas__mutex_lock(&db_lock);
    override **pp = &overrides;
    while (*pp && !((*pp)->device == device && (*pp)->kernel == k))
        pp = &(*pp)->next;
    if (*pp) {
        override *o = *pp;
        if (remove) {
            *pp = o->next;
            free(o->text);
            free(o);
        } else {
            free(o->text);
            o->text = text;
        }
    } else if (!remove) {
        override *o = malloc(sizeof *o);
        if (!o) {
            oclblas__mutex_unlock(&db_lock);
            free(text);
            return OCLBLAS_OUT_OF_HOST_MEMORY;
        }
        o->device = device;
        o->kernel = k;
        o->text = text;
        o->next = overrides;
        overrides = o;
    }
    atomic_fetch_add(&generation, 1);
    oclblas__mutex_unlock(&db_lock);
    return OCLBLAS_SUCCESS;
}

oclblas_status oclblas_get_params(cl_device_id device, const char *kernel, char *buf, size_t len)
{
    const int k = oclblas__kernel_by_name(kernel);
    if (k < 0)
        return OCLBLAS_UNKNOWN_KERNEL;
    if (!device || !buf || len == 0)
        return OCLBLAS_INVALID_ARGUMENT;
    const oclblas__device_info *dev;
    oclblas_status st = oclblas__device_info_get(device, &dev);
    if (st != OCLBLAS_SUCCESS)
        return st;
    oclblas__params p;
    char from[400];
    st = oclblas__db_lookup(dev, k, &p, from, sizeof from);
    if (st != OCLBLAS_SUCCESS)
        return st;
    char text[512], out[1024];
    oclblas__params_format(k, &p, text, sizeof text);
    const int n = snprintf(out, sizeof out, "%s;%s", text, from);
    if (n < 0 || (size_t)n >= len)
        return OCLBLAS_INVALID_ARGUMENT; /* and buf stays as it was */
    memcpy(buf, out, (size_t)n + 1);
    return OCLBLAS_SUCCESS;
}
