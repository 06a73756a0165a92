// The shared memory between the in-process agent (libImgtraceAgent) and `imgtrace record
// --agent`: one header, then one ring per thread. Each ring has one producer (its thread, in the
// agent) and one consumer (imgtrace), so a record costs a copy and two atomic stores: no lock, no
// system call. A full ring the recorder drains is waited for (docs/agent.md); one nobody drains
// drops the record and counts it in `lost`.
#ifndef IMGTRACE_AGENT_SHARED_H
#define IMGTRACE_AGENT_SHARED_H

#include <stdint.h>

#define IMGTRACE_AGENT_MAGIC 0x31544741544D49ull /* "IMTAGT1" */
/// 2: records carry the request's stack (return addresses after the name).
/// 3: a request's return is a record of its own (`IMGTRACE_AGENT_RETURN`): its duration.
/// 4: the program's memory map after the rings (`maps`), so a program that ends at once still
///    has its frames named; a file of 2 or 3 is the same up to the rings' end.
#define IMGTRACE_AGENT_VERSION 4
/// The oldest layout this imgtrace reads from a file (2 is 3 without returns).
#define IMGTRACE_AGENT_OLDEST_VERSION 2
/// Bytes of the program's `/proc/self/maps` text the agent keeps (whole lines).
#define IMGTRACE_AGENT_MAPS_BYTES (1u << 20)
/// Rings, one per thread that loads an image; threads beyond these count as lost.
#define IMGTRACE_AGENT_RINGS 64
/// Bytes per ring (a power of two): a record takes its header and its name, rounded up to 8.
#define IMGTRACE_AGENT_RING_BYTES (1u << 22)
/// Name bytes a record keeps; longer names are cut there and flagged.
#define IMGTRACE_AGENT_NAME_BYTES 4096
/// Stack frames a record keeps at most (`IMGTRACE_AGENT_FRAMES` asks for fewer; 0 by default).
#define IMGTRACE_AGENT_MAX_FRAMES 32
/// The API list (IMGTRACE_AGENT_APIS, kept in the file's `apis`): one target a line (or `;`),
/// `KIND TARGET`, read by the agent and written and read by imgtrace from these words alone.
/// At most this many targets are wrapped.
#define IMGTRACE_AGENT_MAX_APIS 32
/// `objc -[Class selector]`: a method whose third argument is the image's name.
#define IMGTRACE_AGENT_API_OBJC "objc"
/// `symbol name N`: a C function whose argument N (1 to 6) is the name as a C string.
#define IMGTRACE_AGENT_API_SYMBOL "symbol"
/// `context -[Class selector]`: a method that gives the requests inside it their kind.
#define IMGTRACE_AGENT_API_CONTEXT "context"
/// `decode -[Class selector]`: a method that decodes an image object a lookup returned.
#define IMGTRACE_AGENT_API_DECODE "decode"
/// `end -[Class selector]`: the method whose first return ends the launch.
#define IMGTRACE_AGENT_API_END "end"
/// Bytes of text the agent leaves for imgtrace: what it patched, what it skipped and why.
#define IMGTRACE_AGENT_NOTES_BYTES 8192

/// What a record is.
enum imgtrace_agent_record_kind {
    IMGTRACE_AGENT_NAME = 0,      // a request with a readable name
    IMGTRACE_AGENT_NIL = 1,       // a request whose name was nil / NULL
    IMGTRACE_AGENT_UNREADABLE = 2,// a name object that has no UTF8String
    IMGTRACE_AGENT_LAUNCH_END = 3,// the launch-end method returned
    IMGTRACE_AGENT_PAD = 4,       // the rest of the ring is unused: the next record is at its start
    IMGTRACE_AGENT_RETURN = 5,    // the request of sequence number `seq` in this ring returned (payload below)
    IMGTRACE_AGENT_DECODE = 6     // a decode method ran on an image object: 8 name bytes hold the object's address
};

/// A return record's 32 name bytes: which request returned, how long it ran (CLOCK_MONOTONIC,
/// from the API's entry to its return to the caller, nested image calls included), what it
/// returned (a lookup's image object, which a later decode names), and how much of its time went
/// to the image APIs it called (its own time is the difference).
typedef struct {
    uint64_t request_seq;
    uint64_t nanoseconds;
    uint64_t result;
    uint64_t nested_nanoseconds;
} imgtrace_agent_return_payload;

/// A record's flags: its name was cut at the limit; its stack ended at a frame whose unwind
/// information pointed off the thread's stack (the walk read nothing there).
enum { IMGTRACE_AGENT_TRUNCATED = 1, IMGTRACE_AGENT_FRAMES_UNREADABLE = 2 };

/// A record's header; `length` name bytes follow it, then, from the next multiple of 8, `frames`
/// 64-bit addresses (the API's entry, then the return addresses of its callers, innermost
/// first), and the next record starts after them. A header never straddles the ring's end: fewer
/// than its size left there are skipped, and a record that does not fit is preceded by a PAD header.
typedef struct {
    uint64_t seq;      // global order across threads
    uint64_t seconds;  // CLOCK_REALTIME
    uint32_t nanoseconds;
    uint16_t api;      // index into the agent's API list
    uint8_t kind;      // imgtrace_agent_record_kind
    uint8_t flags;     // IMGTRACE_AGENT_TRUNCATED, IMGTRACE_AGENT_FRAMES_UNREADABLE
    uint32_t length;   // name bytes that follow
    uint16_t context;  // the API index of the context it ran in (a nib, a trait change), or 0xFFFF
    uint16_t frames;   // addresses after the name, at most IMGTRACE_AGENT_MAX_FRAMES
} imgtrace_agent_record;

/// A record's bytes in its ring: header, name (to a multiple of 8) and frames; 0 for a header no
/// agent writes (a name or a stack longer than the limits).
static inline uint64_t imgtrace_agent_record_size(const imgtrace_agent_record *record) {
    if (record->length > IMGTRACE_AGENT_NAME_BYTES || record->frames > IMGTRACE_AGENT_MAX_FRAMES) return 0;
    return ((sizeof(imgtrace_agent_record) + record->length + 7) & ~(uint64_t)7) + (uint64_t)record->frames * 8;
}

typedef struct {
    uint64_t head;     // bytes written (producer; release store)
    uint64_t tail;     // bytes read (consumer; release store)
    int32_t tid;       // 0 while unclaimed
    char thread[28];   // the thread's name when it claimed the ring
    uint8_t bytes[IMGTRACE_AGENT_RING_BYTES];
} imgtrace_agent_ring;

typedef struct {
    uint64_t magic;
    uint32_t version;
    uint32_t ready;          // set by the agent once its patches are in
    uint64_t seq;            // next record's sequence number
    uint64_t lost;           // records dropped: a full ring, or no ring left
    uint32_t rings_claimed;
    uint32_t notes_length;
    int32_t pid;             // the process the agent runs in
    uint32_t patched;        // methods and functions wrapped
    uint8_t api_status[64];  // per API of the list: 0 not found, 1 wrapped, 2 refused (see notes)
    char notes[IMGTRACE_AGENT_NOTES_BYTES];
    char apis[IMGTRACE_AGENT_NOTES_BYTES];   // the API list the agent read, so a file can be read alone
    imgtrace_agent_ring rings[IMGTRACE_AGENT_RINGS];
    /// The program's memory map as the agent read it when it was ready and after each dlopen
    /// (recording with frames only): `maps_length` bytes, published with a release store.
    uint32_t maps_length;
    /// The process that drains the rings while the program runs (imgtrace), 0 for a file: a
    /// ring it is alive to drain is waited for, not given up on, however busy the machine.
    int32_t reader_pid;
    /// Processes that loaded the agent from imgtrace's region and wrapped none of the APIs.
    uint32_t wrapped_nothing;
    uint32_t reserved;
    char maps[IMGTRACE_AGENT_MAPS_BYTES];
} imgtrace_agent_shared;

#include <stddef.h>

/// imgtrace's side. Creates the shared memory (a memfd the program inherits) with its header
/// written; returns the descriptor (or -1) and the mapping in `*region`.
int imgtrace_agent_region_create(imgtrace_agent_shared **region);
/// Sizes the file `fd` for the layout, maps it and writes the header; NULL when it cannot.
imgtrace_agent_shared *imgtrace_agent_region_init(int fd);
/// Copies ring `index`'s unread records (header and name each, 8-aligned, no padding between)
/// into `out` while they fit in `capacity` bytes, and marks them read; returns the bytes copied.
/// `*tid` gets the ring's thread (0: unclaimed).
size_t imgtrace_agent_drain(imgtrace_agent_shared *region, int index, uint8_t *out, size_t capacity, int32_t *tid);
/// Reads a counter the agent updates atomically.
uint64_t imgtrace_agent_lost(const imgtrace_agent_shared *region);
uint32_t imgtrace_agent_ready(const imgtrace_agent_shared *region);
uint32_t imgtrace_agent_notes_length(const imgtrace_agent_shared *region);
/// The agent's notes (`imgtrace_agent_notes_length` bytes) and a ring's thread name.
const char *imgtrace_agent_notes(const imgtrace_agent_shared *region);
const char *imgtrace_agent_ring_thread(const imgtrace_agent_shared *region, int index);
const char *imgtrace_agent_apis(const imgtrace_agent_shared *region);
int32_t imgtrace_agent_pid(const imgtrace_agent_shared *region);
/// The program's memory map as the agent copied it (`*length` bytes; 0 when it did not).
const char *imgtrace_agent_maps(const imgtrace_agent_shared *region, uint32_t *length);
/// Why a file could not be read as an agent's: it cannot be opened (errno says why), it is no
/// regular file of an agent file's size, or it lacks the magic and version.
enum {
    IMGTRACE_AGENT_FILE_OK = 0, IMGTRACE_AGENT_FILE_UNOPENED = 1, IMGTRACE_AGENT_FILE_SHAPE = 2, IMGTRACE_AGENT_FILE_MAGIC = 3,
    IMGTRACE_AGENT_FILE_VERSION = 4
};
/// Maps a file an agent wrote (IMGTRACE_AGENT_FILE) for reading, privately: what a drain stores
/// stays in this process, and the file is never written (a second read gets the same records).
/// NULL when it is not one, with `*problem` saying why. `*owner` gets the file's owner (user id).
imgtrace_agent_shared *imgtrace_agent_open_file(const char *path, int *problem, uint32_t *owner);
/// How many APIs the process that took the region wrapped.
uint32_t imgtrace_agent_patched(const imgtrace_agent_shared *region);
/// How many processes loaded the agent from the region and wrapped nothing.
uint32_t imgtrace_agent_wrapped_nothing(const imgtrace_agent_shared *region);

#endif
