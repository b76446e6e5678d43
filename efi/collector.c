/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * collector: records streamed to an efiperf-collector over the firmware's TCP4 (efi/collector.h).
 */
#include <efi.h>
#include <efilib.h>
#include <string.h>
#include "arch/arch.h"
#include "arch/lib/fmt.h"
#include "efi/collector.h"
#include "efi/config/url.h"
#include "efi/netboot.h"
#include "efi/out/report.h"
#include "efi/pages.h"

#define COLL_QUEUE_BYTES (4u << 20)   /* records waiting to be sent: pool */
#define COLL_BODY_BYTES (320u << 10)  /* one request: head + body; the largest record (256 KiB) fits */
#define COLL_HEAD_BYTES 512u
#define COLL_REPLY_BYTES 2048u
#define COLL_BATCH_MS 1000u           /* between two sends while the run goes on */
#define COLL_BACKOFF_MAX_S 16u
#define COLL_IO_MS 5000u              /* connect, send, or the answer: at most this long each */
#define COLL_TTL 64u                  /* IPv4 time to live */
#define TICKS_PER_MS 10000u           /* SetTimer counts 100 ns units (UEFI 2.10 section 7.1) */
#define MS_PER_S 1000u
#define US_PER_MS 1000u
#define HTTP_OK 200u                  /* RFC 9110 section 15 */
#define HTTP_UNAUTHORIZED 401u
#define HTTP_CONFLICT 409u
#define RUN_ID_SERIAL_MAX 32

/* EFI_CONNECTION_FIN: the peer closed (UEFI 2.10 Appendix D, status code 104); gnu-efi lacks it. */
#ifndef EFI_CONNECTION_FIN
#define EFI_CONNECTION_FIN EFIERR(104)
#endif

/* EFI_IP4_CONFIG2_PROTOCOL (UEFI 2.10 section 28.5); gnu-efi 3.0.15 lacks it. */
#define IP4_CONFIG2_GUID { 0x5b446ed1, 0xe30b, 0x4faa, { 0x87, 0x1a, 0x36, 0x54, 0xec, 0xa3, 0x60, 0x80 } }
#define IP4_CONFIG2_DATA_POLICY 1   /* EFI_IP4_CONFIG2_DATA_TYPE Ip4Config2DataTypePolicy */
#define IP4_CONFIG2_POLICY_STATIC 0 /* EFI_IP4_CONFIG2_POLICY */
#define IP4_CONFIG2_POLICY_DHCP 1
struct ip4_config2 {
	EFI_STATUS (EFIAPI *SetData)(struct ip4_config2 *This, UINT32 DataType, UINTN DataSize, VOID *Data);
	EFI_STATUS (EFIAPI *GetData)(struct ip4_config2 *This, UINT32 DataType, UINTN *DataSize, VOID *Data);
	VOID *RegisterDataNotify, *UnregisterDataNotify;
};
static EFI_GUID ip4_config2_guid = IP4_CONFIG2_GUID;
static EFI_GUID tcp4_sb_guid = EFI_TCP4_SERVICE_BINDING_PROTOCOL;
static EFI_GUID tcp4_guid = EFI_TCP4_PROTOCOL;

static struct {
	EFI_SERVICE_BINDING *sb;
	struct url url;
	char url_text[96];
	char token[128];
	char run_id[72];
	uint32_t wait_s;
	char *q;                 /* entries: u32 length, then the record's JSON */
	size_t q_head, q_tail;   /* first unacknowledged entry, end */
	uint64_t seq_head;       /* seq of the entry at q_head */
	uint64_t seq_next;       /* seq the next record gets */
	uint64_t lost;           /* records never queued (buffer full, or after a 401) */
	char *req;               /* COLL_BODY_BYTES */
	EFI_EVENT next;          /* signalled: time to send (batch interval or backoff over) */
	uint32_t backoff_s;
	int have_station;        /* loaded over PXE: the address its DHCP gave */
	EFI_IPv4_ADDRESS station, subnet;
	EFI_HANDLE nic;          /* the handle with the TCP4 service binding */
	struct ip4_config2 *dhcp_set;   /* its IPv4 policy this run switched to DHCP, put back at the end */
	int stopped;             /* 401: nothing more is sent */
	int down;                /* the last send failed (said once) */
} c;

static void arm(uint32_t ms)
{
	BS->SetTimer(c.next, TimerRelative, (UINT64)ms * TICKS_PER_MS);
}


/* The IPv4 driver has no default address (its policy is static with none, edk2's default):
 * switch its policy to DHCP for this run (EFI_IP4_CONFIG2_PROTOCOL.SetData, UEFI 2.10 section
 * 28.5); the address comes while the run goes on, and on_close puts the static policy back. */
static void ask_dhcp(void)
{
	struct ip4_config2 *cfg2;
	UINT32 policy = 0;
	UINTN n = sizeof(policy);
	if (BS->HandleProtocol(c.nic, &ip4_config2_guid, (VOID **)&cfg2) != EFI_SUCCESS ||
	    cfg2->GetData(cfg2, IP4_CONFIG2_DATA_POLICY, &n, &policy) != EFI_SUCCESS || policy != IP4_CONFIG2_POLICY_STATIC)
		return;
	policy = IP4_CONFIG2_POLICY_DHCP;
	EFI_STATUS st = cfg2->SetData(cfg2, IP4_CONFIG2_DATA_POLICY, sizeof(policy), &policy);
	if (st == EFI_SUCCESS || st == EFI_NOT_READY) {
		c.dhcp_set = cfg2;
		rep_line("collector: no IPv4 address: the network device's IPv4 policy is DHCP for this run");
	}
}

/* Wait for a TCP4 token's event, polling the driver, at most ms. */
static EFI_STATUS tcp_wait(EFI_TCP4 *tcp, EFI_TCP4_COMPLETION_TOKEN *tok, uint32_t ms)
{
	for (uint32_t t = 0; t < ms; t++) {
		if (BS->CheckEvent(tok->Event) == EFI_SUCCESS)
			return tok->Status;
		tcp->Poll(tcp);
		BS->Stall(US_PER_MS);
	}
	return EFI_TIMEOUT;
}

/* One HTTP exchange: req[0..len) out, the answer (at most COLL_REPLY_BYTES - 1) into reply.
 * Returns EFI_SUCCESS once the peer closed or the buffer is full; *why names a failure. */
static EFI_STATUS exchange(char *req, size_t len, char *reply, size_t *got, const char **why)
{
	EFI_HANDLE child = NULL;
	EFI_TCP4 *tcp = NULL;
	EFI_STATUS st = c.sb->CreateChild(c.sb, &child);
	*got = 0;
	if (st != EFI_SUCCESS) {
		*why = "TCP4 CreateChild failed";
		return st;
	}
	EFI_EVENT ev = NULL;
	st = BS->HandleProtocol(child, &tcp4_guid, (VOID **)&tcp);
	if (st == EFI_SUCCESS)
		st = BS->CreateEvent(0, 0, NULL, NULL, &ev);
	EFI_TCP4_CONFIG_DATA cd = { .TimeToLive = COLL_TTL };
	/* Loaded over PXE: the address the PXE Base Code's DHCP gave. Its IPv4 driver has no default
	 * address then (the PXE driver configured only its own children), so UseDefaultAddress would
	 * wait for one (EFI_NO_MAPPING, UEFI 2.10 section 28.1). Else the default address. */
	cd.AccessPoint.UseDefaultAddress = !c.have_station;
	cd.AccessPoint.StationAddress = c.station;
	cd.AccessPoint.SubnetMask = c.subnet;
	memcpy(&cd.AccessPoint.RemoteAddress, c.url.ip, 4);
	cd.AccessPoint.RemotePort = c.url.port;
	cd.AccessPoint.ActiveFlag = TRUE;
	if (st == EFI_SUCCESS)
		st = tcp->Configure(tcp, &cd);
	if (st == EFI_NO_MAPPING && !c.have_station && !c.dhcp_set)
		ask_dhcp();
	if (st != EFI_SUCCESS && !*why) {
		static char cw[96];
		fmt_snprintf(cw, sizeof(cw), "TCP4 Configure: EFI status 0x%lx%s", (unsigned long)st,
			     st == EFI_NO_MAPPING ? " (no IPv4 address yet)" : "");
		*why = cw;
	}
	if (st == EFI_SUCCESS) {
		EFI_TCP4_CONNECTION_TOKEN ct = { { ev, EFI_SUCCESS } };
		st = tcp->Connect(tcp, &ct);
		if (st == EFI_SUCCESS)
			st = tcp_wait(tcp, &ct.CompletionToken, COLL_IO_MS);
		if (st != EFI_SUCCESS)
			*why = st == EFI_TIMEOUT ? "no connection within 5 s" : "connection refused or reset";
	}
	if (st == EFI_SUCCESS) {
		EFI_TCP4_TRANSMIT_DATA tx = { .Push = TRUE, .DataLength = (UINT32)len, .FragmentCount = 1,
					      .FragmentTable = { { (UINT32)len, req } } };
		EFI_TCP4_IO_TOKEN tt = { .CompletionToken = { ev, EFI_SUCCESS }, .Packet.TxData = &tx };
		st = tcp->Transmit(tcp, &tt);
		if (st == EFI_SUCCESS)
			st = tcp_wait(tcp, &tt.CompletionToken, COLL_IO_MS);
		if (st != EFI_SUCCESS)
			*why = "sending the request failed";
	}
	while (st == EFI_SUCCESS && *got + 1 < COLL_REPLY_BYTES) {
		EFI_TCP4_RECEIVE_DATA rx = { .DataLength = (UINT32)(COLL_REPLY_BYTES - 1 - *got), .FragmentCount = 1,
					     .FragmentTable = { { (UINT32)(COLL_REPLY_BYTES - 1 - *got), reply + *got } } };
		EFI_TCP4_IO_TOKEN rt = { .CompletionToken = { ev, EFI_SUCCESS }, .Packet.RxData = &rx };
		st = tcp->Receive(tcp, &rt);
		if (st == EFI_SUCCESS)
			st = tcp_wait(tcp, &rt.CompletionToken, COLL_IO_MS);
		if (st == EFI_SUCCESS)
			*got += rx.DataLength;
	}
	if (st == EFI_CONNECTION_FIN || (st != EFI_SUCCESS && *got))
		st = EFI_SUCCESS;   /* the answer is complete when the collector closes (Connection: close) */
	else if (st != EFI_SUCCESS && !*why)
		*why = st == EFI_TIMEOUT ? "no answer within 5 s" : "the connection broke";
	reply[*got] = 0;
	if (tcp)
		tcp->Configure(tcp, NULL);   /* resets the instance: aborts what is still pending */
	if (ev)
		BS->CloseEvent(ev);
	c.sb->DestroyChild(c.sb, child);
	return st;
}

/* text after the first `key`, or NULL (the firmware's C library has no strstr). */
static const char *after(const char *text, const char *key)
{
	size_t k = strlen(key);
	for (; *text; text++)
		if (!strncmp(text, key, k))
			return text + k;
	return NULL;
}

/* The decimal number after `key` in text, or -1. */
static int64_t number_after(const char *text, const char *key)
{
	const char *p = after(text, key);
	if (!p)
		return -1;
	while (*p == ' ')
		p++;   /* JSON allows space after ':' (RFC 8259 section 2) */
	int64_t v = 0;
	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	return v;
}

/* Drop the entries the collector has (seq below next). */
static void acknowledge(uint64_t next)
{
	while (c.seq_head < next && c.q_head < c.q_tail) {
		uint32_t n;
		memcpy(&n, c.q + c.q_head, sizeof(n));
		c.q_head += sizeof(n) + n;
		c.seq_head++;
	}
}

/* One POST of as many queued records as fit. Returns 0 when it was taken, -1. */
static int send_batch(void)
{
	static char reply[COLL_REPLY_BYTES];
	char *body = c.req + COLL_HEAD_BYTES;
	size_t cap = COLL_BODY_BYTES - COLL_HEAD_BYTES, len = 0, at = c.q_head;
	for (uint64_t seq = c.seq_head; at < c.q_tail; seq++) {
		uint32_t n;
		memcpy(&n, c.q + at, sizeof(n));
		size_t need = n + 40;
		if (len + need > cap && len)
			break;
		len += fmt_snprintf(body + len, cap - len, "{\"seq\":%lu,\"record\":%.*s}\n", (unsigned long)seq, (int)n,
				    c.q + at + sizeof(n));
		at += sizeof(n) + n;
	}
	char head[COLL_HEAD_BYTES];
	size_t hn = fmt_snprintf(head, sizeof(head),
				 "POST %sapi/v1/runs/%s/records HTTP/1.1\r\nHost: %u.%u.%u.%u:%u\r\n"
				 "Authorization: Bearer %s\r\nContent-Type: application/x-ndjson\r\n"
				 "Content-Length: %lu\r\nConnection: close\r\n\r\n",
				 c.url.path, c.run_id, c.url.ip[0], c.url.ip[1], c.url.ip[2], c.url.ip[3], c.url.port, c.token,
				 (unsigned long)len);
	memcpy(body - hn, head, hn);   /* the head right before the body */
	size_t got = 0;
	const char *why = NULL;
	char msg[160];
	uint64_t had = c.seq_head;
	if (exchange(body - hn, hn + len, reply, &got, &why) != EFI_SUCCESS) {
		fmt_snprintf(msg, sizeof(msg), "%s", why ? why : "the exchange failed");
	} else {
		int64_t code = reply[0] == 'H' ? number_after(reply, " ") : -1;   /* "HTTP/1.1 200 OK" */
		const char *b = after(reply, "\r\n\r\n");
		b = b ? b : "";
		int64_t next = code == HTTP_OK ? number_after(b, "\"next_seq\":") :
			       code == HTTP_CONFLICT ? number_after(b, "expected seq ") : -1;   /* a gap: it has those */
		if (next >= 0)
			acknowledge((uint64_t)next);
		if (c.seq_head > had)
			return 0;   /* progress: the rest goes in the next batch */
		if (code == HTTP_UNAUTHORIZED) {
			c.stopped = 1;
			rep_line("collector: %s refused the token (HTTP 401): streaming stops; %s", c.url_text,
				 rep_log_stem() ? "the FAT log continues" : "the console goes on");
			return -1;
		}
		fmt_snprintf(msg, sizeof(msg), "HTTP %ld: %.100s", (long)code, b);
	}
	if (!c.down)
		rep_line("collector: %s: %s; records wait in memory and are retried", c.url_text, msg);
	c.down = 1;
	return -1;
}

/* Send what is queued; after a failure, try again only after the backoff. */
static void try_send(void)
{
	int ok = 0;
	while (!c.stopped && c.q_head < c.q_tail && (ok = send_batch() == 0))
		;
	if (c.stopped)
		return;
	if (c.q_head == c.q_tail || ok) {
		if (c.down)
			rep_line("collector: %s answers again", c.url_text);
		c.down = 0;
		c.backoff_s = 0;
		arm(COLL_BATCH_MS);
		return;
	}
	c.backoff_s = c.backoff_s ? (c.backoff_s * 2 > COLL_BACKOFF_MAX_S ? COLL_BACKOFF_MAX_S : c.backoff_s * 2) : 1;
	arm(c.backoff_s * MS_PER_S);
}

static void on_record(const char *json, size_t len)
{
	if (c.stopped || c.lost) {
		c.seq_next++;
		c.lost++;
		return;
	}
	if (c.q_tail + sizeof(uint32_t) + len > COLL_QUEUE_BYTES && c.q_head) {
		memmove(c.q, c.q + c.q_head, c.q_tail - c.q_head);   /* compact: the sent entries are gone */
		c.q_tail -= c.q_head;
		c.q_head = 0;
	}
	if (c.q_tail + sizeof(uint32_t) + len > COLL_QUEUE_BYTES) {
		rep_line("collector: the %u KiB buffer is full: records from seq %lu on are not sent",
			 COLL_QUEUE_BYTES >> 10, (unsigned long)c.seq_next);
		c.seq_next++;
		c.lost++;
		return;
	}
	uint32_t n = (uint32_t)len;
	memcpy(c.q + c.q_tail, &n, sizeof(n));
	memcpy(c.q + c.q_tail + sizeof(n), json, len);
	c.q_tail += sizeof(n) + len;
	c.seq_next++;
}

/* No record open: send when the batch interval or the backoff is over. */
static void on_idle(void)
{
	if (!c.stopped && BS->CheckEvent(c.next) == EFI_SUCCESS)
		try_send();
}

/* The end: at most wait_s for the rest, then the count. */
static void on_close(void)
{
	EFI_EVENT deadline = NULL;
	if (BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &deadline) == EFI_SUCCESS)
		BS->SetTimer(deadline, TimerRelative, (UINT64)c.wait_s * MS_PER_S * TICKS_PER_MS);
	int first = 1;
	while (!c.stopped && c.q_head < c.q_tail) {
		if (first || BS->CheckEvent(c.next) == EFI_SUCCESS)
			try_send();
		else if (!deadline || BS->CheckEvent(deadline) == EFI_SUCCESS)
			break;
		else
			BS->Stall(10 * US_PER_MS);
		first = 0;
	}
	if (deadline)
		BS->CloseEvent(deadline);
	if (c.dhcp_set) {
		UINT32 policy = IP4_CONFIG2_POLICY_STATIC;
		c.dhcp_set->SetData(c.dhcp_set, IP4_CONFIG2_DATA_POLICY, sizeof(policy), &policy);
	}
	rep_line("collector: %u records not delivered (%lu sent to %s, run %s)", (unsigned)(c.seq_next - c.seq_head),
		 (unsigned long)(c.seq_head), c.url_text, c.run_id);
	rep_set_sink(NULL, NULL, NULL);
}

/* SERIAL-YYYYMMDDTHHMMSS-XXXX, each serial byte outside [A-Za-z0-9._-] as '_' (the collector's
 * run id alphabet, boot/collector/ingest.py RUN_ID_RE). */
static void make_run_id(const char *serial)
{
	char s[RUN_ID_SERIAL_MAX + 1];
	size_t n = 0;
	for (; serial && serial[n] && n < RUN_ID_SERIAL_MAX; n++) {
		char ch = serial[n];
		int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
			 ch == '_' || ch == '-';
		s[n] = ok ? ch : '_';
	}
	s[n] = 0;
	EFI_TIME t = { .Year = 1970, .Month = 1, .Day = 1 };
	RT->GetTime(&t, NULL);
	fmt_snprintf(c.run_id, sizeof(c.run_id), "%s-%04u%02u%02uT%02u%02u%02u-%04x", n ? s : "noserial", t.Year, t.Month,
		     t.Day, t.Hour, t.Minute, t.Second, (unsigned)(arch_timer_read() & 0xffff));
}

/* The TCP4 service binding of the device efiperf came from, else the first one. */
static EFI_SERVICE_BINDING *find_tcp4(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE *li;
	EFI_SERVICE_BINDING *sb = NULL;
	if (BS->HandleProtocol(image, &LoadedImageProtocol, (VOID **)&li) == EFI_SUCCESS &&
	    BS->HandleProtocol(li->DeviceHandle, &tcp4_sb_guid, (VOID **)&sb) == EFI_SUCCESS) {
		c.nic = li->DeviceHandle;
		return sb;
	}
	UINTN n = 0;
	EFI_HANDLE *h = NULL;
	if (BS->LocateHandleBuffer(ByProtocol, &tcp4_sb_guid, NULL, &n, &h) != EFI_SUCCESS || !n)
		return NULL;
	if (BS->HandleProtocol(h[0], &tcp4_sb_guid, (VOID **)&sb) != EFI_SUCCESS)
		sb = NULL;
	c.nic = h[0];
	FreePool(h);
	return sb;
}

void collector_start(EFI_HANDLE image, const char *url, const char *token, uint32_t wait_s, const char *serial)
{
	char msg[160];
	if (!url || !*url || !strcmp(url, "none"))
		return;
	if (url_parse(url, strlen(url), &c.url, msg, sizeof(msg)) != 0)
		return;   /* the config parser said so already */
	fmt_snprintf(c.url_text, sizeof(c.url_text), "%s", url);
	fmt_snprintf(c.token, sizeof(c.token), "%s", token ? token : "");
	c.wait_s = wait_s;
	c.sb = find_tcp4(image);
	if (!c.sb) {
		rep_line("collector: no EFI_TCP4_SERVICE_BINDING_PROTOCOL in this firmware: records are not sent to %s", url);
		return;
	}
	c.q = pool_zalloc(COLL_QUEUE_BYTES);
	c.req = pool_zalloc(COLL_BODY_BYTES);
	if (!c.q || !c.req || BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &c.next) != EFI_SUCCESS) {
		rep_line("collector: no pool memory for the %u KiB buffer: records are not sent to %s",
			 (COLL_QUEUE_BYTES + COLL_BODY_BYTES) >> 10, url);
		pool_free(c.q);
		pool_free(c.req);
		return;
	}
	struct netboot nb;
	const char *why;
	if (netboot_open(image, &nb, &why) == 0) {
		c.have_station = 1;
		memcpy(&c.station, &nb.pxe->Mode->StationIp.v4, sizeof(c.station));
		memcpy(&c.subnet, &nb.pxe->Mode->SubnetMask.v4, sizeof(c.subnet));
	}
	make_run_id(serial);
	arm(0);
	rep_set_sink(on_record, on_idle, on_close);
	rep_line("collector: records go to %s as run %s (TCP4, HTTP/1.1)", url, c.run_id);
}
