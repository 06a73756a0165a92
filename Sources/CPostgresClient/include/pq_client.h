// PostgreSQL's client library (libpq), loaded when a history lives on a server: imgtrace links
// nothing of it, so a machine without libpq builds and runs every other command. Each entry is
// libpq's own function of that name (libpq-fe.h); connections and results stay opaque.
#ifndef IMGTRACE_PQ_CLIENT_H
#define IMGTRACE_PQ_CLIENT_H

#include <stddef.h>

typedef struct imgtrace_pq_api {
    void *(*connectdb)(const char *conninfo);
    int (*status)(const void *conn);
    char *(*error_message)(const void *conn);
    void (*finish)(void *conn);
    void *(*exec)(void *conn, const char *query);
    void *(*exec_params)(
        void *conn, const char *command, int count, const unsigned int *types, const char *const *values, const int *lengths,
        const int *formats, int result_format);
    int (*result_status)(const void *result);
    char *(*result_error_message)(const void *result);
    int (*ntuples)(const void *result);
    int (*nfields)(const void *result);
    char *(*getvalue)(const void *result, int row, int column);
    int (*getisnull)(const void *result, int row, int column);
    void (*clear)(void *result);
} imgtrace_pq_api;

/// libpq's functions, loaded once; NULL with a reason in `problem` when the library is absent.
const imgtrace_pq_api *imgtrace_pq_load(char *problem, size_t size);

#endif
