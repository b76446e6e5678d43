/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config: efiperf's settings, from \efiperf\efiperf.cfg (`key = value`, '#' comments) and the
 * shell arguments (`efiperf.efi key=value ... | --help`); arguments override the file.
 * Pure parser over byte buffers: no EFI calls, unit-tested and fuzzed on the host.
 *
 * The keys are one table (config.c: cfg_keys[]): name, type, default, limits, help. Every error
 * names where (file and line, or argument number), the key and what is wrong; nothing falls
 * back silently to a default. Each setting remembers where it came from (default, file:line,
 * argument N) for the run record.
 */
#ifndef EFIPERF_CONFIG_H
#define EFIPERF_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "efi/config/bdf.h"   /* CFG_BDF() packing of the PCI function settings */
#include "efi/out/jsonl.h"
#include "efi/verdict/check.h"

enum cfg_exit { CFG_EXIT_RETURN, CFG_EXIT_SHUTDOWN, CFG_EXIT_REBOOT };
enum cfg_trace { CFG_TRACE_NONE, CFG_TRACE_HW };
/* The choices of uncore, topdown, ibs, ibs_count and nvme_rw, in the order of their names. */
enum cfg_uncore { CFG_UNCORE_OFF, CFG_UNCORE_ON, CFG_UNCORE_FORCE };
enum cfg_topdown { CFG_TOPDOWN_OFF, CFG_TOPDOWN_ON, CFG_TOPDOWN_L2 };
enum cfg_ibs { CFG_IBS_OFF, CFG_IBS_FETCH, CFG_IBS_OP };
enum cfg_ibs_count { CFG_IBS_COUNT_CYCLES, CFG_IBS_COUNT_OPS };
enum cfg_rw { CFG_RW_READ, CFG_RW_WRITE };
enum cfg_fault_test { CFG_FAULT_TEST_OFF, CFG_FAULT_TEST_AP };

enum cfg_key_id {
	CFG_EXIT,            /* exit = return | shutdown | reboot            (default return)   */
	CFG_TRACE,           /* trace = none | hw                            (default none)     */
	CFG_COPY_SIZE,       /* copy_size = bytes, K/M/G binary suffixes     (default 64M)      */
	CFG_COPY_PASSES,     /* copy_passes = 1..1000                        (default 3)        */
	CFG_LOOP_ITERATIONS, /* loop_iterations = 1000..1000000000           (default 10000000) */
	CFG_PCIE,            /* pcie = on | off                              (default on)       */
	CFG_CPUS,            /* cpus = boot | all | 0,2,5 | 4-7 | socket1    (default boot)     */
	CFG_MMIO_BDF,        /* mmio_bdf = SSSS:BB:DD.F | none               (default none)     */
	CFG_MMIO_BAR,        /* mmio_bar = 0..5                              (default 0)        */
	CFG_MMIO_BYTES,      /* mmio_bytes = bytes, multiple of 8, 8..1G     (default 64K)      */
	CFG_MMIO_WRITE,      /* mmio_write = off | on                        (default off)      */
	CFG_DMA_ENGINE,      /* dma_engine = SSSS:BB:DD.F | none             (default none)     */
	CFG_DMA_BLOCKIO,     /* dma_blockio = SSSS:BB:DD.F | none            (default none)     */
	CFG_DMA_BYTES,       /* dma_bytes = bytes, multiple of 4K            (default 16M)      */
	CFG_DMA_WRITE_LBA,   /* dma_write_lba = none | BDF FIRST-LAST        (default none)     */
	CFG_CHA,             /* cha = off | on | auto                        (default off)      */
	CFG_CHA_COUNT,       /* cha_count = 0..256, 0 = discover             (default 0)        */
	CFG_CHA_EVENTS,      /* cha_events = text                            (default empty)    */
	CFG_CORE_EVENTS,     /* core_events = text                           (default empty)    */
	CFG_TOPDOWN,         /* topdown = off | on | l2                      (default off)      */
	CFG_IBS,             /* ibs = off | fetch | op                       (default off)      */
	CFG_IBS_PERIOD,      /* ibs_period = 0x10..0x7FFFFF0                 (default 0x10000)  */
	CFG_IBS_COUNT,       /* ibs_count = cycles | ops                     (default cycles)   */
	CFG_STREAM,          /* stream = off | on                            (default off)      */
	CFG_STREAM_SIZE,     /* stream_size = bytes, multiple of 4K          (default 64M)      */
	CFG_STREAM_PASSES,   /* stream_passes = 1..100                       (default 5)        */
	CFG_KERNEL,          /* kernel = auto | variant name                 (default auto)     */
	CFG_KERNEL_BUDGET,   /* kernel_budget = 0..10000 ms, tuner time      (default 1000)     */
	CFG_LATENCY,         /* latency = off | on                           (default off)      */
	CFG_LATENCY_MAX,     /* latency_max = bytes, multiple of 4K          (default 64M)      */
	CFG_NVME,            /* nvme = none | all | BDF[,BDF...]             (default none)     */
	CFG_NVME_RW,         /* nvme_rw = read | write                       (default read)     */
	CFG_NVME_BS,         /* nvme_bs = BYTES[,BYTES...]                   (default 4K,128K)  */
	CFG_NVME_IODEPTH,    /* nvme_iodepth = N[,N...]                      (default 1,32)     */
	CFG_NVME_SIZE,       /* nvme_size = bytes per controller per point   (default 16M)      */
	CFG_NVME_WRITE_LBA,  /* nvme_write_lba = none | BDF FIRST-LAST       (default none)     */
	CFG_UNCORE,          /* uncore = off | on | force                    (default off)      */
	CFG_UNCORE_EVENTS,   /* uncore_events = text                         (default empty)    */
	CFG_PCIE_PMU_RP,     /* pcie_pmu_rp = SSSS:BB:DD.F | none            (default none)     */
	CFG_DDIO_SWEEP,      /* ddio_sweep = none | BYTES[,BYTES...]         (default none)     */
	CFG_DMA_CPU_TRAFFIC, /* dma_cpu_traffic = none | load | ... | triad  (default none)     */
	CFG_C2C,             /* c2c = off | on                               (default off)      */
	CFG_C2C_ROUNDS,      /* c2c_rounds = 1..10000                        (default 50)       */
	CFG_C2C_TRIPS,       /* c2c_trips = 1..1000000                       (default 100)      */
	CFG_NUMA_MATRIX,     /* numa_matrix = off | on                       (default off)      */
	CFG_NUMA_SIZE,       /* numa_size = bytes, multiple of 4K            (default 64M)      */
	CFG_CACHE_BW,        /* cache_bw = off | on                          (default off)      */
	CFG_CACHE_BW_PASSES, /* cache_bw_passes = 1..1000                    (default 10)       */
	CFG_CACHE_BW_DRAM,   /* cache_bw_dram = bytes per array, 0 = 4 x LLC (default 0)        */
	CFG_LOADED_LATENCY,  /* loaded_latency = off | on                    (default off)      */
	CFG_LOADED_DELAYS,   /* loaded_delays = N[,N...] pause loops per line                   */
	CFG_LOADED_SIZE,     /* loaded_size = bytes, multiple of 4K          (default 64M)      */
	CFG_FAULT_TEST,      /* fault_test = off | ap   TEST HOOK: #UD on an AP (default off)   */
	CFG_CXL_DECODERS,    /* cxl_decoders = off | commit                  (default off)      */
	CFG_AER_CLEAR,       /* aer_clear = off | on: clear RW1C error bits  (default off)      */
	CFG_COLLECTOR,       /* collector = none | http://A.B.C.D[:PORT]/     (default none)     */
	CFG_COLLECTOR_TOKEN, /* collector_token = text                       (default empty)    */
	CFG_COLLECTOR_WAIT,  /* collector_wait = 0..3600 s at the end        (default 30)       */
	/* pass/fail checks (efi/verdict/check.h): each setting appends to checks[] */
	CFG_CHECK,           /* check = PATH OP VALUE                        (repeatable)       */
	CFG_EXPECT_LINK,     /* expect_link = BDF GT/s xW                    (repeatable)       */
	CFG_EXPECT_NO_DOWNTRAIN, /* expect_no_downtrain = off | on                              */
	CFG_EXPECT_CPUS,     /* expect_cpus = N                                                 */
	CFG_EXPECT_MEMORY,   /* expect_memory = GiB                                             */
	CFG_EXPECT_MICROCODE,/* expect_microcode [>=|<=|==|!=] 0xREV                            */
	CFG_NKEYS
};

struct efiperf_config {
	enum cfg_exit exit;
	enum cfg_trace trace;
	uint64_t copy_size;        /* bytes; multiple of 64, 4 KiB .. 16 GiB */
	uint32_t copy_passes;
	uint64_t loop_iterations;  /* iterations of the known instruction-count loop */
	uint32_t pcie;             /* 1: enumerate PCIe config space */
	char cpus[64];             /* efi/cpuset.h syntax, checked when parsed */
	uint64_t mmio_bdf;         /* CFG_BDF() packing, CFG_BDF_NONE when unset */
	uint32_t mmio_bar;
	uint64_t mmio_bytes;
	uint32_t mmio_write;
	uint64_t dma_engine;       /* CFG_BDF() packing, CFG_BDF_NONE when unset */
	uint64_t dma_blockio;      /* CFG_BDF() packing, CFG_BDF_NONE when unset */
	uint64_t dma_bytes;
	char dma_write_lba[48];    /* efi/blockio_target.h syntax, checked when parsed */
	uint32_t cha;                 /* 0 off, 1 on, CFG_CHA_AUTO */
	uint32_t cha_count;
	char cha_events[256];
	enum cfg_uncore uncore;    /* force: program boxes CPUID says are absent */
	char uncore_events[1024];      /* perf strings of several PMUs: 1023 characters */
	uint64_t pcie_pmu_rp;      /* CFG_BDF() packing, CFG_BDF_NONE when unset */
	char core_events[256];
	enum cfg_topdown topdown;
	enum cfg_ibs ibs;
	uint32_t ibs_period;
	enum cfg_ibs_count ibs_count;
	uint32_t stream;
	uint64_t stream_size;      /* bytes per array per CPU */
	uint32_t stream_passes;
	char kernel[40];           /* "auto" or an arch_kernels name (checked when parsed) */
	uint32_t kernel_budget;    /* ms for the tuner, all kinds and CPU classes together */
	uint32_t latency;
	uint64_t latency_max;      /* bytes */
	char nvme[160];            /* efi/nvme/nvme_params.h syntax, checked when parsed */
	enum cfg_rw nvme_rw;
	char nvme_bs[64];          /* efi/nvme/nvme_params.h syntax */
	char nvme_iodepth[48];     /* efi/nvme/nvme_params.h syntax */
	uint64_t nvme_size;        /* bytes per controller per (bs, iodepth) point */
	char nvme_write_lba[48];   /* efi/blockio_target.h syntax */
	char ddio_sweep[96];       /* efi/measure/ddio.h syntax, checked when parsed */
	uint32_t dma_cpu_traffic;  /* 0 none, else CFG_DMA_CPU_* : the STREAM function beside the DMA */
	int nchecks;               /* checks[] in use: every check key's settings, file then arguments */
	struct check checks[CHECK_MAX];
	uint32_t c2c;
	uint32_t c2c_rounds;       /* rounds per pair: min and median are over these */
	uint32_t c2c_trips;        /* round trips timed together in one round */
	uint32_t numa_matrix;
	uint64_t numa_size;        /* bytes of each node's buffer */
	uint32_t cache_bw;
	uint32_t cache_bw_passes;
	uint64_t cache_bw_dram;    /* bytes per array of the DRAM point, 0: 4 x the last level, >= 64M */
	uint32_t loaded_latency;
	char loaded_delays[64];    /* injection delays, checked when parsed (cfg_loaded_delays) */
	uint32_t fault_test;       /* test hook: 1 runs an undefined instruction on the first AP */
	uint64_t loaded_size;      /* bytes of the chase and of each bandwidth CPU's buffer */
	uint32_t cxl_decoders;     /* 1: commit one CFMWS window's decoders, check, put back */
	uint32_t aer_clear;        /* 1: health clears the AER/status bits it finds before a window */
	char collector[96];        /* "none" or efi/config/url.h syntax, checked when parsed */
	char collector_token[128]; /* printable ASCII, no spaces; never written to a record */
	uint32_t collector_wait;   /* seconds the end waits for undelivered records */
	char origin[CFG_NKEYS][48];  /* "default", "efiperf.cfg:7", "argument 2" */
};

#define CFG_MAX_ERRORS 8
struct cfg_error {
	char where[64];    /* "\efiperf\efiperf.cfg:7" or "argument 2" */
	char key[32];      /* the key as written (truncated), "" when the line has none */
	char message[256]; /* what is wrong, with the accepted values or range */
};
struct cfg_errors {
	int count;                 /* errors found (may exceed CFG_MAX_ERRORS; extra not stored) */
	struct cfg_error e[CFG_MAX_ERRORS];
};

/* Fill every setting with its default; origin "default". */
void cfg_defaults(struct efiperf_config *c);

/* Parse a config file's text (len bytes, need not be NUL-terminated; CRLF, LF, tabs, a UTF-8
 * BOM and blank lines accepted). fname is used in error locations. Every bad line is recorded
 * in errs. Returns the number of errors found in this text (0 = ok). */
int cfg_parse_text(struct efiperf_config *c, const char *text, size_t len, const char *fname,
		   struct cfg_errors *errs);

/* Parse argv[0..argc-1] (program name already removed): "key=value" or "--help"/"-h".
 * Sets *help when help was asked for. Returns the number of errors found. */
int cfg_parse_args(struct efiperf_config *c, int argc, char *const argv[], int *help,
		   struct cfg_errors *errs);

/* Split a command line in place into at most max arguments, on spaces and tabs, honouring
 * double quotes. Returns argc. */
int cfg_split_cmdline(char *line, char *argv[], int max);

/* The shell's command line (UEFI LoadOptions) as arguments, every limit an error: line holds
 * the text as read, NUL-terminated, and full is the length of the whole line given (more than
 * strlen(line) when it did not fit the caller's buffer). Splits it in place (cfg_split_cmdline)
 * into at most max arguments; with skip_program, a first argument ending in ".efi" (the
 * program, as the UEFI shell passes it) is removed and the others move down. Arguments past
 * max, and a last argument the buffer cut, are dropped, never applied, each with an error
 * (where "command line") quoting what was dropped. Returns argc. */
int cfg_cmdline_args(char *line, size_t full, char *argv[], int max, int skip_program, struct cfg_errors *errs);

/* Write the settings as members of the currently open JSON object:
 * "exit":"shutdown","trace":"none","copy_size":67108864,... and an "origin":{...} object. */
void cfg_to_json(const struct efiperf_config *c, struct json *j);

/* One help line per key ("  copy_size = BYTES  ...  (default 64M)") appended to sb. */
void cfg_help(struct strbuf *sb);

/* dma_cpu_traffic values: none, then the STREAM functions in arch/kernel.h's order. */
enum cfg_dma_cpu { CFG_DMA_CPU_NONE, CFG_DMA_CPU_LOAD, CFG_DMA_CPU_STORE, CFG_DMA_CPU_NTSTORE, CFG_DMA_CPU_COPY,
		   CFG_DMA_CPU_NTCOPY, CFG_DMA_CPU_TRIAD };

/* A key's name as written in efiperf.cfg ("dma_engine"), "?" for no key. */
const char *cfg_key_name(enum cfg_key_id k);
/* loaded_delays = N[,N...]: v[0..n) into out[0..LOADED_DELAYS_MAX-1], each 0..LOADED_DELAY_MAX
 * spin-loop iterations a bandwidth CPU waits after each 64-byte line it reads. Returns the count,
 * or -1 with msg naming the bad value. */
#define LOADED_DELAYS_MAX 8
#define LOADED_DELAY_MAX 100000u
int cfg_loaded_delays(const char *v, size_t n, uint32_t *out, char *msg, size_t msgsz);

/* Name of an enum value as configured: "return", "shutdown", ... */
const char *cfg_exit_name(enum cfg_exit e);

/* cha = auto: on where the CPU has a CHA efiperf programs, off (saying why) elsewhere */
#define CFG_CHA_AUTO 2

#endif
