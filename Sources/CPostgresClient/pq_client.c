#include "pq_client.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static imgtrace_pq_api api;
static const imgtrace_pq_api *loaded;
static char load_problem[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    // The versioned names are the runtime library's (libpq5 on Debian, Homebrew's libpq on macOS).
    static const char *const names[] = {"libpq.so.5", "libpq.so", "libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib",
                                        "/usr/local/opt/libpq/lib/libpq.5.dylib"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_problem, sizeof load_problem, "PostgreSQL's client library (libpq) is not installed: %s", dlerror());
        return;
    }
    struct {
        const char *name;
        void **slot;
    } const entries[] = {
        {"PQconnectdb", (void **)&api.connectdb},       {"PQstatus", (void **)&api.status},
        {"PQerrorMessage", (void **)&api.error_message}, {"PQfinish", (void **)&api.finish},
        {"PQexec", (void **)&api.exec},                 {"PQexecParams", (void **)&api.exec_params},
        {"PQresultStatus", (void **)&api.result_status}, {"PQresultErrorMessage", (void **)&api.result_error_message},
        {"PQntuples", (void **)&api.ntuples},           {"PQnfields", (void **)&api.nfields},
        {"PQgetvalue", (void **)&api.getvalue},         {"PQgetisnull", (void **)&api.getisnull},
        {"PQclear", (void **)&api.clear},
    };
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        *entries[i].slot = dlsym(library, entries[i].name);
        if (*entries[i].slot == NULL) {
            snprintf(load_problem, sizeof load_problem, "libpq has no %s", entries[i].name);
            return;
        }
    }
    loaded = &api;
}

const imgtrace_pq_api *imgtrace_pq_load(char *problem, size_t size) {
    pthread_once(&once, load);
    if (loaded == NULL && problem != NULL && size > 0) snprintf(problem, size, "%s", load_problem);
    return loaded;
}
