/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config: the settings table and its parsers (efi/config.h). Parsing, defaults, help and the
 * JSON record are all driven by cfg_keys[]: adding a key is one table row plus its field.
 */
#include "efi/config/config.h"
#include "efi/config/config_value.h"
#include "efi/config/cpuset.h"
#include "efi/config/blockio_target.h"
#include "efi/config/url.h"
#include "efi/nvme/nvme_params.h"
#include "efi/measure/ddio.h"
#include "arch/kernel.h"

#include <stdarg.h>
#include <string.h>

#define KIB (1ull << 10)
#define MIB (1ull << 20)
#define GIB (1ull << 30)
#define COPY_BLOCK_BYTES 64u   /* the copy kernels move whole 64-byte blocks (arch/arch.h) */
#define UTF8_BOM "\xEF\xBB\xBF"
#define UTF8_BOM_LEN 3u
#define UTF16_SNIFF_BYTES 256u  /* bytes looked at for NUL-interleaved (UTF-16) or binary text */
#define BINARY_MIN_CONTROLS 8u  /* ... binary: at least this many control bytes, and */
#define BINARY_CONTROL_SHARE 8u /* ... at least one in this many of the bytes looked at */
#define ASCII_DEL 0x7Fu
#define CMDLINE_SHOWN 80        /* characters of dropped arguments quoted in the error */
#define TEXT_MAX 320u           /* scratch for lists and descriptions (the key list) */
#define HELP_NAME_WIDTH 15      /* loop_iterations; longer check-key names push their line right */
#define HELP_METAVAR_WIDTH 22   /* longest metavar: return|shutdown|reboot */

static const char *const exit_names[] = { "return", "shutdown", "reboot", NULL };
static const char *const trace_names[] = { "none", "hw", NULL };
static const char *const onoff_names[] = { "off", "on", NULL };
static const char *const cha_names[] = { "off", "on", "auto", NULL };
static const char *const fault_test_names[] = { "off", "ap", NULL };
static const char *const topdown_names[] = { "off", "on", "l2", NULL };
static const char *const cxl_decoders_names[] = { "off", "commit", NULL };
static const char *const uncore_names[] = { "off", "on", "force", NULL };
static const char *const ibs_names[] = { "off", "fetch", "op", NULL };
static const char *const ibs_count_names[] = { "cycles", "ops", NULL };
static const char *const rw_names[] = { "read", "write", NULL };
static const char *const dma_cpu_names[] = { "none", "load", "store", "ntstore", "copy", "ntcopy", "triad", NULL };

static int cpus_check(const char *v, size_t n, char *msg, size_t msgsz)
{
	struct cpuset set;
	return cpuset_parse(v, n, &set, msg, msgsz);
}

static int write_lba_check(const char *v, size_t n, char *msg, size_t msgsz)
{
	struct blockio_target t;
	return blockio_target_parse(v, n, &t, msg, msgsz);
}

static const struct cfg_key delay_key = { "loaded_delays", CFG_T_UINT, "N", NULL, 0, 0, LOADED_DELAY_MAX, 0, 0, 4,
					  NULL, NULL, NULL };

int cfg_loaded_delays(const char *v, size_t n, uint32_t *out, char *msg, size_t msgsz)
{
	int count;
	return cfg_value_list(&delay_key, v, n, out, LOADED_DELAYS_MAX, &count, msg, msgsz) ? -1 : count;
}

static int loaded_delays_check(const char *v, size_t n, char *msg, size_t msgsz)
{
	uint32_t d[LOADED_DELAYS_MAX];
	return cfg_loaded_delays(v, n, d, msg, msgsz) < 0 ? -1 : 0;
}

/* `kernel`: auto, an ISA of this architecture's kernel table (the tuner chooses among its
 * variants), or a variant of it (arch/kernel.h names). */
static int kernel_check(const char *v, size_t n, char *msg, size_t msgsz)
{
	if (n == 4 && !memcmp(v, "auto", 4))
		return 0;
	for (uint32_t i = 0; i < arch_nkernels; i++) {
		const char *isa = kernel_isa_name(arch_kernels[i].isa);
		if (arch_kernels[i].isa && strlen(isa) == n && !memcmp(isa, v, n))
			return 0;
	}
	for (uint32_t i = 0; i < arch_nkernels; i++)
		if (strlen(arch_kernels[i].name) == n && !memcmp(arch_kernels[i].name, v, n) &&
		    arch_kernels[i].kind != KERNEL_CHASE)
			return 0;
	fmt_snprintf(msg, msgsz, "'%.*s' is not a kernel variant: auto, an ISA (%s), or KIND_sP[uU][_pfD]_ISA as in copy_s8_%s",
		     (int)(n > 40 ? 40 : n), v, kernel_isa_name(arch_kernels[0].isa), kernel_isa_name(arch_kernels[0].isa));
	return -1;
}

static int collector_check(const char *v, size_t n, char *msg, size_t msgsz)
{
	struct url u;
	return n == 4 && !memcmp(v, "none", 4) ? 0 : url_parse(v, n, &u, msg, msgsz);
}

/* An HTTP header value (RFC 9110 section 5.5), restricted to visible ASCII: no spaces. */
static int token_check(const char *v, size_t n, char *msg, size_t msgsz)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)v[i] <= 0x20u || (unsigned char)v[i] >= ASCII_DEL) {
			fmt_snprintf(msg, msgsz, "byte %u is 0x%02x: a token is visible ASCII without spaces", (unsigned)i,
				     (unsigned)(unsigned char)v[i]);
			return -1;
		}
	return 0;
}

#define FIELD(f) offsetof(struct efiperf_config, f), sizeof(((struct efiperf_config *)0)->f)

static const struct cfg_key cfg_keys[CFG_NKEYS] = {
	[CFG_EXIT] = { "exit", CFG_T_ENUM, "return|shutdown|reboot", exit_names,
		       CFG_EXIT_RETURN, 0, 0, 0, FIELD(exit),
		       "what to do when the run ends", NULL, NULL },
	[CFG_TRACE] = { "trace", CFG_T_ENUM, "none|hw", trace_names,
			CFG_TRACE_NONE, 0, 0, 0, FIELD(trace),
			"hw: record every hardware access into the log", NULL, NULL },
	[CFG_COPY_SIZE] = { "copy_size", CFG_T_BYTES, "BYTES", NULL,
			    64 * MIB, 4 * KIB, 16 * GIB, COPY_BLOCK_BYTES, FIELD(copy_size),
			    "memory copy buffer size, K/M/G suffixes are binary", NULL, NULL },
	[CFG_COPY_PASSES] = { "copy_passes", CFG_T_UINT, "N", NULL,
			      3, 1, 1000, 0, FIELD(copy_passes),
			      "memory copy passes", NULL, NULL },
	[CFG_LOOP_ITERATIONS] = { "loop_iterations", CFG_T_UINT, "N", NULL,
				  10000000, 1000, 1000000000, 0, FIELD(loop_iterations),
				  "iterations of the known instruction-count loop", NULL, NULL },
	[CFG_PCIE] = { "pcie", CFG_T_ENUM, "on|off", onoff_names,
		       1, 0, 0, 0, FIELD(pcie),
		       "enumerate PCIe config space (ECAM or root bridge I/O)", NULL, NULL },
	[CFG_CPUS] = { "cpus", CFG_T_TEXT, "boot|all|LIST", NULL,
		       0, 0, 0, 0, FIELD(cpus),
		       "CPUs the measurement kernels run on, all at once; LIST: 0,2,5 4-7 socket1, comma-separated",
		       "boot", cpus_check },
	[CFG_MMIO_BDF] = { "mmio_bdf", CFG_T_BDF, "BDF|none", NULL,
			   CFG_BDF_NONE, 0, 0, 0, FIELD(mmio_bdf),
			   "PCI function whose memory BAR the MMIO kernel reads", NULL, NULL },
	[CFG_MMIO_BAR] = { "mmio_bar", CFG_T_UINT, "N", NULL,
			   0, 0, 5, 0, FIELD(mmio_bar),
			   "BAR index of mmio_bdf (a 64-bit BAR is named by its low half)", NULL, NULL },
	[CFG_MMIO_BYTES] = { "mmio_bytes", CFG_T_BYTES, "BYTES", NULL,
			     64 * KIB, 8, 1 * GIB, 8, FIELD(mmio_bytes),
			     "bytes of the BAR the MMIO kernel reads (capped at the BAR size)", NULL, NULL },
	[CFG_MMIO_WRITE] = { "mmio_write", CFG_T_ENUM, "off|on", onoff_names,
			     0, 0, 0, 0, FIELD(mmio_write),
			     "also write the BAR (destroys its contents)", NULL, NULL },
	[CFG_DMA_ENGINE] = { "dma_engine", CFG_T_BDF, "BDF|none", NULL,
			     CFG_BDF_NONE, 0, 0, 0, FIELD(dma_engine),
			     "PCI function of a DMA engine (QEMU edu) for a DMA round trip", NULL, NULL },
	[CFG_DMA_BLOCKIO] = { "dma_blockio", CFG_T_BDF, "BDF|none", NULL,
			      CFG_BDF_NONE, 0, 0, 0, FIELD(dma_blockio),
			      "PCI function of a disk controller to read dma_bytes from (Block IO, reads only)", NULL, NULL },
	[CFG_DMA_BYTES] = { "dma_bytes", CFG_T_BYTES, "BYTES", NULL,
			    16 * MIB, 4 * KIB, 1024 * GIB, 4 * KIB, FIELD(dma_bytes),
			    "bytes read from the start of the dma_blockio disk, in 1 MiB transfers", NULL, NULL },
	[CFG_DMA_WRITE_LBA] = { "dma_write_lba", CFG_T_TEXT, "none|BDF[/nsN|/portN] FIRST-LAST", NULL,
				0, 0, 0, 0, FIELD(dma_write_lba),
				"write blocks FIRST..LAST of the disk behind BDF, or its NVMe namespace N or SATA port N "
				"(DESTROYS them), then read back",
				"none", write_lba_check },
	[CFG_CHA] = { "cha", CFG_T_ENUM, "off|on|auto", cha_names,
		      0, 0, 0, 0, FIELD(cha),
		      "Intel uncore CHA counters (PCIe/IO LLC metrics) around the copy and DMA windows; "
		      "auto: on where the CPU has a CHA efiperf programs", NULL, NULL },
	[CFG_CHA_COUNT] = { "cha_count", CFG_T_UINT, "N", NULL,
			    0, 0, 256, 0, FIELD(cha_count),
			    "CHAs per socket; 0 discovers them (set it where discovery fails)", NULL, NULL },
	[CFG_CHA_EVENTS] = { "cha_events", CFG_T_TEXT, "EVENTS", NULL,
			     0, 0, 0, 0, FIELD(cha_events),
			     "';'-separated cha/.../ strings or event names; empty: the platform's PCIe set", NULL, NULL },
	[CFG_UNCORE] = { "uncore", CFG_T_ENUM, "off|on|force", uncore_names,
			 0, 0, 0, 0, FIELD(uncore),
			 "uncore boxes beyond the CHA (Intel uncore_imc, uncore_iio; AMD amd_df, amd_l3, amd_umc; the APMT's "
			 "CoreSight PMUs) with "
			 "their default events around the copy kernel; force: also boxes CPUID says are absent", NULL, NULL },
	[CFG_UNCORE_EVENTS] = { "uncore_events", CFG_T_TEXT, "EVENTS", NULL,
				0, 0, 0, 0, FIELD(uncore_events),
				"';'-separated PMU/.../ strings (Linux sysfs PMU names: uncore_imc[_N], uncore_iio[_N], "
				"amd_df, amd_l3, amd_umc, nvidia_ucf_pmu_N, nvidia_pcie_pmu_N_rc_M, arm_cspmu_ID ...) or event "
				"names; a box none names is left out", NULL, NULL },
	[CFG_PCIE_PMU_RP] = { "pcie_pmu_rp", CFG_T_BDF, "BDF|none", NULL,
			      CFG_BDF_NONE, 0, 0, 0, FIELD(pcie_pmu_rp),
			      "NVIDIA root port whose traffic the PCIE / PCIE-TGT PMUs count (socket, RC and root-port "
			      "bit from its DVSEC RC map)", NULL, NULL },
	[CFG_CORE_EVENTS] = { "core_events", CFG_T_TEXT, "EVENTS", NULL,
			      0, 0, 0, 0, FIELD(core_events),
			      "space-separated cpu/.../ (Intel) or core/.../ (AMD) strings or event names", NULL, NULL },
	[CFG_TOPDOWN] = { "topdown", CFG_T_ENUM, "off|on|l2", topdown_names,
			  0, 0, 0, 0, FIELD(topdown),
			  "TopDown: Intel (level 2 where the CPU has it), AMD Zen 4/5 pipeline use (l2: level 2), Arm Neoverse L1", NULL, NULL },
	[CFG_IBS] = { "ibs", CFG_T_ENUM, "off|fetch|op", ibs_names,
		      0, 0, 0, 0, FIELD(ibs),
		      "AMD IBS sampling, polled", NULL, NULL },
	[CFG_IBS_PERIOD] = { "ibs_period", CFG_T_UINT, "N", NULL,
			     0x10000, 0x10, 0x7FFFFF0, 0, FIELD(ibs_period),
			     "IBS sampling period (validated per CPU: multiple of 16, minimum per family)", NULL, NULL },
	[CFG_IBS_COUNT] = { "ibs_count", CFG_T_ENUM, "cycles|ops", ibs_count_names,
			    0, 0, 0, 0, FIELD(ibs_count),
			    "what the IBS op period counts", NULL, NULL },
	[CFG_STREAM] = { "stream", CFG_T_ENUM, "off|on", onoff_names,
			 0, 0, 0, 0, FIELD(stream),
			 "STREAM-style load/store/ntstore/copy/ntcopy/triad kernels on the cpus", NULL, NULL },
	[CFG_STREAM_SIZE] = { "stream_size", CFG_T_BYTES, "BYTES", NULL,
			      64 * MIB, 4 * KIB, 16 * GIB, 4 * KIB, FIELD(stream_size),
			      "bytes of each array, per CPU", NULL, NULL },
	[CFG_STREAM_PASSES] = { "stream_passes", CFG_T_UINT, "N", NULL,
				5, 1, 100, 0, FIELD(stream_passes),
				"passes per kernel (best, average, min and max time are reported)", NULL, NULL },
	[CFG_KERNEL] = { "kernel", CFG_T_TEXT, "auto|ISA|VARIANT", NULL,
			 0, 0, 0, 0, FIELD(kernel),
			 "stream kernels: auto tunes per CPU class; an ISA (avx2) tunes among its variants; a variant "
			 "(copy_s8_avx2) pins that kind",
			 "auto", kernel_check },
	[CFG_KERNEL_BUDGET] = { "kernel_budget", CFG_T_UINT, "MS", NULL,
				1000, 0, 10000, 0, FIELD(kernel_budget),
				"tuner time for all stream kinds and CPU classes together; 0: no tuning", NULL, NULL },
	[CFG_LATENCY] = { "latency", CFG_T_ENUM, "off|on", onoff_names,
			  0, 0, 0, 0, FIELD(latency),
			  "pointer-chase latency curve on the boot CPU", NULL, NULL },
	[CFG_LATENCY_MAX] = { "latency_max", CFG_T_BYTES, "BYTES", NULL,
			      64 * MIB, 4 * KIB, 16 * GIB, 4 * KIB, FIELD(latency_max),
			      "bound on the latency curve's working sets (from 4K, doubling while within it and 1G)", NULL, NULL },
	[CFG_NVME] = { "nvme", CFG_T_TEXT, "none|all|BDF,...", NULL,
		       0, 0, 0, 0, FIELD(nvme),
		       "NVMe controllers efiperf drives with its own queues (the boot disk's is refused)",
		       "none", nvme_ctrls_check },
	[CFG_NVME_RW] = { "nvme_rw", CFG_T_ENUM, "read|write", rw_names,
			  0, 0, 0, 0, FIELD(nvme_rw),
			  "write: only the nvme_write_lba range of its controller", NULL, NULL },
	[CFG_NVME_BS] = { "nvme_bs", CFG_T_TEXT, "BYTES,...", NULL,
			  0, 0, 0, 0, FIELD(nvme_bs),
			  "bytes per command, a multiple of the LBA size, at most MDTS",
			  "4K,128K", nvme_bs_check },
	[CFG_NVME_IODEPTH] = { "nvme_iodepth", CFG_T_TEXT, "N,...", NULL,
			       0, 0, 0, 0, FIELD(nvme_iodepth),
			       "commands in flight per controller, 1..CAP.MQES (at most 1023)",
			       "1,32", nvme_iodepth_check },
	[CFG_NVME_SIZE] = { "nvme_size", CFG_T_BYTES, "BYTES", NULL,
			    16 * MIB, 4 * KIB, 1024 * GIB, 4 * KIB, FIELD(nvme_size),
			    "bytes per controller per (bs, iodepth) point", NULL, NULL },
	[CFG_NVME_WRITE_LBA] = { "nvme_write_lba", CFG_T_TEXT, "none|BDF FIRST-LAST", NULL,
				 0, 0, 0, 0, FIELD(nvme_write_lba),
				 "with nvme_rw = write: blocks FIRST..LAST of that controller (DESTROYS them)",
				 "none", write_lba_check },
	[CFG_DDIO_SWEEP] = { "ddio_sweep", CFG_T_TEXT, "none|BYTES,...", NULL,
			     0, 0, 0, 0, FIELD(ddio_sweep),
			     "DMA target-buffer sizes (4K..1G): dma_blockio reads dma_bytes into each under the CHA "
			     "counters, IO LLC hit ratio per point", "none", ddio_sizes_check },
	[CFG_DMA_CPU_TRAFFIC] = { "dma_cpu_traffic", CFG_T_ENUM, "none|load|...|triad", dma_cpu_names,
				  CFG_DMA_CPU_NONE, 0, 0, 0, FIELD(dma_cpu_traffic),
				  "STREAM function the cpus other than the boot CPU run while it reads dma_blockio, "
				  "in one window", NULL, NULL },
	[CFG_C2C] = { "c2c", CFG_T_ENUM, "off|on", onoff_names,
		      0, 0, 0, 0, FIELD(c2c),
		      "core-to-core latency matrix: CAS ping-pong between every pair of the cpus (two or more)", NULL, NULL },
	[CFG_C2C_ROUNDS] = { "c2c_rounds", CFG_T_UINT, "N", NULL,
			     50, 1, 10000, 0, FIELD(c2c_rounds),
			     "timed rounds per pair (min and median over them)", NULL, NULL },
	[CFG_C2C_TRIPS] = { "c2c_trips", CFG_T_UINT, "N", NULL,
			    100, 1, 1000000, 0, FIELD(c2c_trips),
			    "round trips per round", NULL, NULL },
	[CFG_NUMA_MATRIX] = { "numa_matrix", CFG_T_ENUM, "off|on", onoff_names,
			      0, 0, 0, 0, FIELD(numa_matrix),
			      "idle latency and read bandwidth from each SRAT node's cpus to each node's memory", NULL, NULL },
	[CFG_NUMA_SIZE] = { "numa_size", CFG_T_BYTES, "BYTES", NULL,
			    64 * MIB, 64 * KIB, 16 * GIB, 4 * KIB, FIELD(numa_size),
			    "buffer per (CPU node, memory node) cell", NULL, NULL },
	[CFG_CACHE_BW] = { "cache_bw", CFG_T_ENUM, "off|on", onoff_names,
			   0, 0, 0, 0, FIELD(cache_bw),
			   "load/store/copy/triad bandwidth at working sets inside L1, L2, L3 and DRAM", NULL, NULL },
	[CFG_CACHE_BW_PASSES] = { "cache_bw_passes", CFG_T_UINT, "N", NULL,
				  10, 1, 1000, 0, FIELD(cache_bw_passes),
				  "passes per level and kernel (the best is reported)", NULL, NULL },
	[CFG_CACHE_BW_DRAM] = { "cache_bw_dram", CFG_T_BYTES, "BYTES", NULL,
				0, 0, 16 * GIB, 4 * KIB, FIELD(cache_bw_dram),
				"bytes per array of cache_bw's DRAM point; 0: 4 x the last cache level, at least 64M", NULL, NULL },
	[CFG_LOADED_LATENCY] = { "loaded_latency", CFG_T_ENUM, "off|on", onoff_names,
				 0, 0, 0, 0, FIELD(loaded_latency),
				 "pointer chase on the first cpu while the other cpus read at each loaded_delays", NULL, NULL },
	[CFG_LOADED_DELAYS] = { "loaded_delays", CFG_T_TEXT, "N,...", NULL,
				0, 0, 0, 0, FIELD(loaded_delays),
				"bandwidth CPUs' spin loops after each 64-byte line read, 0..100000 each",
				"0,100,1000,10000", loaded_delays_check },
	[CFG_LOADED_SIZE] = { "loaded_size", CFG_T_BYTES, "BYTES", NULL,
			      64 * MIB, 64 * KIB, 16 * GIB, 4 * KIB, FIELD(loaded_size),
			      "bytes of the chase and of each bandwidth CPU's buffer", NULL, NULL },
	[CFG_FAULT_TEST] = { "fault_test", CFG_T_ENUM, "off|ap", fault_test_names,
			     0, 0, 0, 0, FIELD(fault_test),
			     "test hook: ap faults once on the first AP", NULL, NULL },
	[CFG_CXL_DECODERS] = { "cxl_decoders", CFG_T_ENUM, "off|commit", cxl_decoders_names,
			       0, 0, 0, 0, FIELD(cxl_decoders),
			       "commit the decoders of the first one-way CFMWS window down to its device, run stream/latency on it, put every register back", NULL, NULL },
	[CFG_AER_CLEAR] = { "aer_clear", CFG_T_ENUM, "off|on", onoff_names,
			    0, 0, 0, 0, FIELD(aer_clear),
			    "before each window, write 1 to the RW1C error bits (Device Status, LBMS/LABS, AER status) found on its devices' paths; the record lists them", NULL, NULL },
	[CFG_COLLECTOR] = { "collector", CFG_T_TEXT, "none|http://A.B.C.D[:PORT]/", NULL,
			    0, 0, 0, 0, FIELD(collector),
			    "efiperf-collector every record is also sent to (HTTP/1.1 over the firmware's TCP4)",
			    "none", collector_check },
	[CFG_COLLECTOR_TOKEN] = { "collector_token", CFG_T_TEXT, "TOKEN", NULL,
				  0, 0, 0, 0, FIELD(collector_token),
				  "the collector's upload token (printable ASCII, no spaces; shown as \"(set)\" in records)",
				  NULL, token_check },
	[CFG_COLLECTOR_WAIT] = { "collector_wait", CFG_T_UINT, "SECONDS", NULL,
				 30, 0, 3600, 0, FIELD(collector_wait),
				 "at the end, how long undelivered records are retried", NULL, NULL },
	/* pass/fail checks: parsed by efi/verdict/check.c into checks[], decided by the verdict */
	[CFG_CHECK] = { "check", CFG_T_CHECK, "PATH OP VALUE", NULL, 0, 0, CHECK_MAX, 0, FIELD(nchecks),
			"pass/fail condition on a log field (type[selector].field >= <= == != or 'within P% of' VALUE), repeatable",
			NULL, NULL },
	[CFG_EXPECT_LINK] = { "expect_link", CFG_T_CHECK, "BDF GT/s xW", NULL, 0, 0, CHECK_MAX, 0, FIELD(nchecks),
			      "the PCIe link of BDF trained at least at GT/s and width W, repeatable", NULL, NULL },
	[CFG_EXPECT_NO_DOWNTRAIN] = { "expect_no_downtrain", CFG_T_CHECK, "off|on", NULL, 0, 0, 1, 0, FIELD(nchecks),
				      "on: every PCIe link at the common maximum of its two ends", NULL, NULL },
	[CFG_EXPECT_CPUS] = { "expect_cpus", CFG_T_CHECK, "N", NULL, 0, 0, 1, 0, FIELD(nchecks),
			      "the machine has N enabled CPUs", NULL, NULL },
	[CFG_EXPECT_MEMORY] = { "expect_memory", CFG_T_CHECK, "GIB", NULL, 0, 0, 1, 0, FIELD(nchecks),
				"SMBIOS reports this much memory in GiB (0.5 = 512 MiB)", NULL, NULL },
	[CFG_EXPECT_MICROCODE] = { "expect_microcode", CFG_T_CHECK, "[OP] 0xREV", NULL, 0, 0, 1, 0, FIELD(nchecks),
				   "microcode revision compared with OP (>= when none; write 'expect_microcode >= 0x...')",
				   NULL, NULL },
};

_Static_assert(sizeof(enum cfg_exit) == sizeof(uint32_t) && sizeof(enum cfg_trace) == sizeof(uint32_t),
	       "enum fields are stored as 32-bit values");

/* ---- fields ------------------------------------------------------------------------------ */

static void field_set(struct efiperf_config *c, const struct cfg_key *k, uint64_t v)
{
	char *f = (char *)c + k->offset;
	if (k->size == sizeof(uint32_t)) {
		uint32_t v32 = (uint32_t)v;
		memcpy(f, &v32, sizeof(v32));
	} else {
		memcpy(f, &v, sizeof(v));
	}
}

/* A CFG_T_TEXT value: printable ASCII that fits its field (NUL included). */
static int text_set(struct efiperf_config *c, const struct cfg_key *k, const char *v, size_t n, char *msg,
		    size_t msgsz)
{
	if (n >= k->size) {
		fmt_snprintf(msg, msgsz, "value of %zu characters is longer than %zu", n, k->size - 1);
		return -1;
	}
	if (k->check && k->check(v, n, msg, msgsz) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)v[i] < ' ' || (unsigned char)v[i] > '~') {
			fmt_snprintf(msg, msgsz, "character %zu is not printable ASCII", i + 1);
			return -1;
		}
	char *f = (char *)c + k->offset;
	memcpy(f, v, n);
	f[n] = 0;
	return 0;
}

static uint64_t field_get(const struct efiperf_config *c, const struct cfg_key *k)
{
	const char *f = (const char *)c + k->offset;
	if (k->size == sizeof(uint32_t)) {
		uint32_t v32;
		memcpy(&v32, f, sizeof(v32));
		return v32;
	}
	uint64_t v;
	memcpy(&v, f, sizeof(v));
	return v;
}

/* ---- text helpers -------------------------------------------------------------------------- */

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/* Trims blanks at both ends of s[0..*n). */
static const char *trim(const char *s, size_t *n)
{
	while (*n && is_blank(*s)) {
		s++;
		(*n)--;
	}
	while (*n && is_blank(s[*n - 1]))
		(*n)--;
	return s;
}

/* First c in s[0..n), or NULL (memchr is not among the functions every target provides). */
static const char *find_char(const char *s, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == c)
			return s + i;
	return NULL;
}

enum split_result { SPLIT_OK, SPLIT_NO_EQUALS, SPLIT_NO_KEY };

/* Splits s[0..n) at its first '=' into a trimmed key and value. */
static enum split_result split_setting(const char *s, size_t n, const char **key, size_t *klen,
				       const char **val, size_t *vlen)
{
	const char *eq = find_char(s, n, '=');
	if (!eq)
		return SPLIT_NO_EQUALS;
	if (eq > s && (eq[-1] == '>' || eq[-1] == '<' || eq[-1] == '!'))
		eq--;  /* "expect_microcode >= 0x..": the operator belongs to the value */
	*klen = (size_t)(eq - s);
	*vlen = n - *klen - (*eq == '=');
	*key = trim(s, klen);
	*val = trim(eq + (*eq == '='), vlen);
	return *klen ? SPLIT_OK : SPLIT_NO_KEY;
}

/* ---- errors -------------------------------------------------------------------------------- */

static void add_error(struct cfg_errors *errs, const char *where, const char *key, size_t klen,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void add_error(struct cfg_errors *errs, const char *where, const char *key, size_t klen,
		      const char *fmt, ...)
{
	if (!errs)
		return;
	if (errs->count >= 0 && errs->count < CFG_MAX_ERRORS) {
		struct cfg_error *e = &errs->e[errs->count];
		size_t kmax = sizeof(e->key) - 1;
		fmt_snprintf(e->where, sizeof(e->where), "%s", where);
		fmt_snprintf(e->key, sizeof(e->key), "%.*s", (int)(klen < kmax ? klen : kmax), key);
		va_list ap;
		va_start(ap, fmt);
		fmt_vsnprintf(e->message, sizeof(e->message), fmt, ap);
		va_end(ap);
	}
	errs->count++;
}

/* The known key closest to key[0..n) in edit distance (insert, delete, substitute one
 * character), when it is at most NEAR_MAX edits away; NULL otherwise. */
#define NEAR_MAX 2
#define NEAR_LEN 32

static size_t edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
	size_t row[NEAR_LEN + 1];
	if (na > NEAR_LEN || nb > NEAR_LEN)
		return NEAR_LEN;
	for (size_t j = 0; j <= nb; j++)
		row[j] = j;
	for (size_t i = 1; i <= na; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[nb];
}

static const struct cfg_key *nearest_key(const char *key, size_t n)
{
	const struct cfg_key *best = NULL;
	size_t best_d = NEAR_MAX + 1;
	for (size_t i = 0; i < CFG_NKEYS; i++) {
		size_t d = edit_distance(key, n, cfg_keys[i].name, strlen(cfg_keys[i].name));
		if (d < best_d) {
			best_d = d;
			best = &cfg_keys[i];
		}
	}
	return best;
}

/* Remove the checks made by key (a single-valued check key set again by an argument). */
static void drop_checks(struct efiperf_config *c, const char *key)
{
	int kept = 0;
	for (int i = 0; i < c->nchecks && i < CHECK_MAX; i++)
		if (strcmp(c->checks[i].key, key) != 0)
			c->checks[kept++] = c->checks[i];
	c->nchecks = kept;
}

/* One "key = value" setting found at `where` (position `pos` counted in `unit`s: a line or an
 * argument). seen[] holds the position each key was first set at in this source (0 = not). */
static int apply(struct efiperf_config *c, const char *key, size_t klen, const char *val, size_t vlen,
		 const char *where, const char *unit, int pos, int seen[CFG_NKEYS], struct cfg_errors *errs)
{
	const struct cfg_key *k = NULL;
	for (size_t i = 0; i < CFG_NKEYS; i++)
		if (strlen(cfg_keys[i].name) == klen && memcmp(key, cfg_keys[i].name, klen) == 0)
			k = &cfg_keys[i];
	if (!k) {
		const struct cfg_key *near = nearest_key(key, klen);
		if (near)
			add_error(errs, where, key, klen, "unknown key (did you mean %s? --help lists every key)", near->name);
		else
			add_error(errs, where, key, klen, "unknown key (--help lists every key)");
		return 1;
	}
	size_t id = (size_t)(k - cfg_keys);
	if (seen[id] && !CFG_REPEATABLE(k)) {
		add_error(errs, where, key, klen, "duplicate key (first set at %s %d)", unit, seen[id]);
		return 1;
	}
	char msg[sizeof(errs->e[0].message)];
	if (k->type == CFG_T_CHECK) {
		if (!CFG_REPEATABLE(k))
			drop_checks(c, k->name);  /* an argument overrides the file's setting */
		if (check_expand(k->name, val, vlen, where, c->checks, &c->nchecks, CHECK_MAX, msg, sizeof(msg)) != 0) {
			add_error(errs, where, key, klen, "%s", msg);
			return 1;
		}
		if (!CFG_REPEATABLE(k) || strcmp(c->origin[id], "default") == 0)
			fmt_snprintf(c->origin[id], sizeof(c->origin[id]), "%s", where);  /* a repeatable key: its first */
		seen[id] = pos;
		return 0;
	}
	seen[id] = pos;

	if (k->type == CFG_T_TEXT) {
		if (text_set(c, k, val, vlen, msg, sizeof(msg)) != 0) {
			add_error(errs, where, key, klen, "%s", msg);
			return 1;
		}
		fmt_snprintf(c->origin[id], sizeof(c->origin[id]), "%s", where);
		return 0;
	}
	uint64_t v;
	if (cfg_value_parse(k, val, vlen, &v, msg, sizeof(msg)) != 0) {
		add_error(errs, where, key, klen, "%s", msg);
		return 1;
	}
	field_set(c, k, v);
	fmt_snprintf(c->origin[id], sizeof(c->origin[id]), "%s", where);
	return 0;
}

/* ---- public -------------------------------------------------------------------------------- */

void cfg_defaults(struct efiperf_config *c)
{
	for (size_t i = 0; i < CFG_NKEYS; i++) {
		if (cfg_keys[i].type == CFG_T_TEXT) {
			char *f = (char *)c + cfg_keys[i].offset;
			memset(f, 0, cfg_keys[i].size);
			if (cfg_keys[i].text_def)
				memcpy(f, cfg_keys[i].text_def, strlen(cfg_keys[i].text_def));
		}
		else
			field_set(c, &cfg_keys[i], cfg_keys[i].def);
		fmt_snprintf(c->origin[i], sizeof(c->origin[i]), "default");
	}
	c->nchecks = 0;
}

/* Why text cannot be a config file at all (UTF-16 with or without a byte order mark, or binary
 * data), or NULL. Unicode 15 section 23.8 (byte order marks FF FE and FE FF); UTF-16 text that
 * is mostly ASCII has a NUL in every other byte. */
static const char *not_text(const char *text, size_t len)
{
	const unsigned char *t = (const unsigned char *)text;
	if (len >= 2 && t[0] == 0xFF && t[1] == 0xFE)
		return "config file is UTF-16 (little-endian, byte order mark FF FE); save it as UTF-8 or ASCII";
	if (len >= 2 && t[0] == 0xFE && t[1] == 0xFF)
		return "config file is UTF-16 (big-endian, byte order mark FE FF); save it as UTF-8 or ASCII";
	size_t n = len < UTF16_SNIFF_BYTES ? len : UTF16_SNIFF_BYTES, nul[2] = { 0, 0 }, controls = 0;
	for (size_t i = 0; i < n; i++) {
		if (!t[i])
			nul[i & 1]++;
		if ((t[i] < ' ' && t[i] != '\t' && t[i] != '\n' && t[i] != '\r' && t[i] != '\f' && t[i] != '\v') ||
		    t[i] == ASCII_DEL)
			controls++;
	}
	size_t pairs = n / 2;
	if (pairs >= 2 && ((nul[1] * 2 >= pairs && !nul[0]) || (nul[0] * 2 >= pairs && !nul[1])))
		return nul[1] ? "config file is UTF-16 (little-endian, no byte order mark: a NUL in every other byte); "
				"save it as UTF-8 or ASCII"
			      : "config file is UTF-16 (big-endian, no byte order mark: a NUL in every other byte); "
				"save it as UTF-8 or ASCII";
	if (controls >= BINARY_MIN_CONTROLS && controls * BINARY_CONTROL_SHARE >= n)
		return "config file is binary data, not text (control bytes among its first bytes); save it as UTF-8 or ASCII";
	return NULL;
}

int cfg_parse_text(struct efiperf_config *c, const char *text, size_t len, const char *fname,
		   struct cfg_errors *errs)
{
	const char *bad = not_text(text, len);
	if (bad) {
		add_error(errs, fname ? fname : "config", "", 0, "%s: nothing in it was applied", bad);
		return 1;
	}
	int seen[CFG_NKEYS] = { 0 };
	int nerr = 0, line = 0;
	size_t pos = 0;

	if (len >= UTF8_BOM_LEN && memcmp(text, UTF8_BOM, UTF8_BOM_LEN) == 0)
		pos = UTF8_BOM_LEN;
	while (pos < len) {
		const char *s = text + pos;
		size_t n = 0;
		while (pos + n < len && s[n] != '\n')
			n++;
		pos += n + 1;
		line++;
		const char *nul = find_char(s, n, '\0');
		if (nul) {
			char at[sizeof(errs->e[0].where)];
			fmt_snprintf(at, sizeof(at), "%s:%d", fname ? fname : "config", line);
			add_error(errs, at, "", 0, "a NUL byte (0x00) at line %d, column %d: the line is not text; nothing "
				  "on it was applied", line, (int)(nul - s) + 1);
			nerr++;
			continue;
		}
		const char *hash = find_char(s, n, '#');  /* a comment runs to the end of the line */
		if (hash)
			n = (size_t)(hash - s);
		s = trim(s, &n);
		if (n == 0)
			continue;

		char where[sizeof(errs->e[0].where)];
		fmt_snprintf(where, sizeof(where), "%s:%d", fname ? fname : "config", line);
		const char *key, *val;
		size_t klen, vlen;
		enum split_result r = split_setting(s, n, &key, &klen, &val, &vlen);
		if (r != SPLIT_OK) {
			add_error(errs, where, "", 0, r == SPLIT_NO_EQUALS ? "expected 'key = value'"
					  : "expected 'key = value' (no key before '=')");
			nerr++;
			continue;
		}
		nerr += apply(c, key, klen, val, vlen, where, "line", line, seen, errs);
	}
	return nerr;
}

int cfg_parse_args(struct efiperf_config *c, int argc, char *const argv[], int *help,
		   struct cfg_errors *errs)
{
	int seen[CFG_NKEYS] = { 0 };
	int nerr = 0;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		char where[sizeof(errs->e[0].where)];
		fmt_snprintf(where, sizeof(where), "argument %d", i + 1);
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			if (help)
				*help = 1;
			continue;
		}
		const char *key, *val;
		size_t klen, vlen;
		if (split_setting(a, strlen(a), &key, &klen, &val, &vlen) != SPLIT_OK) {
			add_error(errs, where, "", 0, "expected 'key=value' or --help");
			nerr++;
			continue;
		}
		nerr += apply(c, key, klen, val, vlen, where, "argument", i + 1, seen, errs);
	}
	return nerr;
}

/* The UEFI shell passes the program's own path first: "fs0:\\efi\\boot\\bootx64.efi". */
static int skip_program_name(const char *a)
{
	size_t n = strlen(a);
	return n >= 4 && a[n - 4] == '.' && (a[n - 3] | 0x20) == 'e' && (a[n - 2] | 0x20) == 'f' && (a[n - 1] | 0x20) == 'i';
}

/* The splitter: *rest is where it stopped (the first argument not taken, or the end). */
static int split_words(char *line, char *argv[], int max, char **rest)
{
	int argc = 0;
	char *r = line;

	for (;;) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r || argc >= max)
			break;
		char *w = r;
		int quoted = 0;
		argv[argc++] = w;
		while (*r && (quoted || (*r != ' ' && *r != '\t'))) {
			if (*r == '"')
				quoted = !quoted;  /* quotes group words and are removed */
			else
				*w++ = *r;
			r++;
		}
		if (*r)
			r++;  /* past the blank that ended the argument: w < r, safe to terminate */
		*w = '\0';
	}
	*rest = r;
	return argc;
}

int cfg_split_cmdline(char *line, char *argv[], int max)
{
	char *rest;
	return split_words(line, argv, max, &rest);
}

int cfg_cmdline_args(char *line, size_t full, char *argv[], int max, int skip_program, struct cfg_errors *errs)
{
	size_t kept = strlen(line);
	int ends_blank = kept && (line[kept - 1] == ' ' || line[kept - 1] == '\t');
	char *rest;
	int argc = split_words(line, argv, max, &rest);
	int program = skip_program && argc && skip_program_name(argv[0]);
	if (*rest) {
		/* more arguments than argv holds: the first not taken and every one after it */
		int more = 0;
		for (char *r = rest; *r;) {
			while (*r == ' ' || *r == '\t')
				r++;
			if (!*r)
				break;
			more++;
			for (int quoted = 0; *r && (quoted || (*r != ' ' && *r != '\t')); r++)
				quoted ^= *r == '"';   /* counted as split_words would split them */
		}
		add_error(errs, "command line", "", 0, "more than %d arguments: %d%s dropped, none of them applied: '%.*s%s'",
			  max - program, more, kept < full ? " or more" : "", CMDLINE_SHOWN, rest,
			  strlen(rest) > CMDLINE_SHOWN ? "..." : "");
	} else if (kept < full && argc && !ends_blank) {
		/* the line was cut inside its last argument: that argument is dropped, never applied cut */
		argc--;
		if (!argc)
			program = 0;   /* the cut one was the first (a program path that long): nothing left to skip */
		add_error(errs, "command line", "", 0, "%zu characters, over the limit of %zu: argument %d '%.*s' was cut "
			  "there and is dropped, not applied, with the %zu characters after it", full, kept,
			  argc + 1 - program, CMDLINE_SHOWN, argv[argc], full - kept);
	} else if (kept < full) {
		add_error(errs, "command line", "", 0, "%zu characters, over the limit of %zu: the %zu characters after it "
			  "are dropped, not applied", full, kept, full - kept);
	}
	if (program) {
		for (int i = 1; i < argc; i++)
			argv[i - 1] = argv[i];
		argc--;
	}
	return argc;
}

/* A check key's settings as written, in order: "expect_link":["0000:01:00.0 8 x4"] (the two
 * checks one expect_link makes are one setting). */
static void checks_json(const struct efiperf_config *c, const char *key, struct json *j)
{
	json_arr(j, key);
	for (int i = 0; i < c->nchecks && i < CHECK_MAX; i++) {
		const struct check *k = &c->checks[i];
		if (strcmp(k->key, key) != 0)
			continue;
		if (i > 0 && strcmp(c->checks[i - 1].key, key) == 0 && strcmp(c->checks[i - 1].where, k->where) == 0)
			continue;
		json_str(j, NULL, k->src);
	}
	json_close(j);
}

void cfg_to_json(const struct efiperf_config *c, struct json *j)
{
	for (size_t i = 0; i < CFG_NKEYS; i++) {
		const struct cfg_key *k = &cfg_keys[i];
		if (k->type == CFG_T_TEXT) {
			const char *v = (const char *)c + k->offset;
			json_str(j, k->name, i == CFG_COLLECTOR_TOKEN && *v ? "(set)" : v);   /* a secret stays out of logs */
			continue;
		}
		if (k->type == CFG_T_CHECK) {
			checks_json(c, k->name, j);
			continue;
		}
		uint64_t v = field_get(c, k);
		char text[24];
		if (k->type == CFG_T_ENUM) {
			json_str(j, k->name, cfg_choice_name(k, v));  /* null if the field holds no choice */
		} else if (k->type == CFG_T_BDF) {
			cfg_value_format(text, sizeof(text), k, v);
			json_str(j, k->name, v == CFG_BDF_NONE ? NULL : text);
		} else {
			json_u64(j, k->name, v);
		}
	}
	json_obj(j, "origin");
	for (size_t i = 0; i < CFG_NKEYS; i++)
		json_str(j, cfg_keys[i].name, c->origin[i]);
	json_close(j);
}

void cfg_help(struct strbuf *sb)
{
	for (size_t i = 0; i < CFG_NKEYS; i++) {
		const struct cfg_key *k = &cfg_keys[i];
		char def[24], accepted[TEXT_MAX];
		cfg_value_format(def, sizeof(def), k, k->def);
		cfg_value_accepted(accepted, sizeof(accepted), k);
		sb_printf(sb, "  %-*s = %-*s %s", HELP_NAME_WIDTH, k->name, HELP_METAVAR_WIDTH, k->metavar,
			  k->help);
		if (k->type != CFG_T_ENUM && k->type != CFG_T_CHECK && !k->check)
			sb_printf(sb, ", %s", accepted);
		sb_printf(sb, " (default %s)\n", def);
	}
}

const char *cfg_key_name(enum cfg_key_id k)
{
	return (unsigned)k < CFG_NKEYS && cfg_keys[k].name ? cfg_keys[k].name : "?";
}

const char *cfg_exit_name(enum cfg_exit e)
{
	const char *name = cfg_choice_name(&cfg_keys[CFG_EXIT], (uint64_t)e);
	return name ? name : "unknown";
}
