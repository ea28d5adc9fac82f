/*
 * mksimlog: write a large synthetic simulator log for sim2ev benchmarks,
 * in the line formats of FORMATS.md, fast (C, not Python).
 *   gem5:  Exec-heavy (macro- and micro-op lines, a function entry every
 *          ~ENTRY lines) with SimBricks adapter, sync and config lines
 *          mixed in; -s writes the matching objdump -t symbol table with
 *          NSYMS functions (a Linux kernel has ~50k).
 *   nicbm: MMIO, DMA issue/execute/complete, eth tx/rx, MSI-X, in the
 *          "info: main_time = ..." form, with dma write payload lines.
 *   ns3:   SimBricks trace sink lines of the dumbbell (Cosim and Simple
 *          devices, Ethernet/IPv4 headers).
 *   switch: net_switch NETSWITCH_DEBUG lines of 16 NICs: unicast IPv4,
 *          every 50th packet an ARP broadcast to the 15 other ports, a few
 *          "unknown eth type" and SIGUSR1 "main_time = " lines.
 *   qemu:  simbricks-pci DEBUG_PRINTS warn_report lines of one packet
 *          each way (doorbell write, DMA and interrupt messages with their
 *          timer-poll lines, a register read), timer-sync lines.
 *   corundum: Corundum Verilator debug lines (h2d read/write, AXIL
 *          done, doRead/doWrite with payload bytes, packets, MSI).
 *   e1000: E1000_DEBUG lines of a transmit and a receive.
 *   nslog: ns-3 NS_LOG (prefix_all, ps resolution) of a SimBricks NS3Net
 *          switch: 8 SimbricksNetDevice ports and a SimpleNetDevice trunk,
 *          each packet received on one, bridged, sent on another, with the
 *          function-call noise of the real logs (tests/data/ns3-nslog).
 * usage: mksimlog -f gem5|nicbm|ns3|switch|qemu|corundum|e1000|nslog -b BYTES
 *        [-e ENTRY] [-S NSYMS] [-s SYMFILE] [-o FILE]
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const char *mnem[] = { "mov    rax, rbx", "add    rsp, 0x18", "push   rbp",
	"cmp    eax, 0x3", "lea    rdi, [rip + 0x1f2a]", "jnz    0xffffffff8104f2b0",
	"xor    edx, edx", "pop    r12", "call   0xffffffff81a01130", "ret" };
static const char *micro[] = { "MOV_R_R : mov   rax, rax, rbx : IntAlu :  D=0x0000000000000001",
	"ADD_R_I : limm   t1, 0x18 : IntAlu :  D=0x0000000000000018",
	"PUSH_R : st   rbp, SS:[rsp + 0xfffffffffffffff8] : MemWrite :  D=0xffffc90000123e88 A=0xffffc90000123e80",
	"CMP_R_I : sub   t0, eax, t1 : IntAlu :  D=0x0000000000000000" };

#define KBASE 0xffffffff81000000ULL

int
main(int argc, char **argv)
{
	const char *fmt = NULL, *out = NULL, *symfile = NULL;
	uint64_t bytes = 0, entry = 50, nsyms = 50000, *syms, tick = 1000000000000ULL;
	uint64_t written = 0, i, n = 0;
	FILE *f;
	int ch;

	while ((ch = getopt(argc, argv, "b:e:f:o:S:s:")) != -1) {
		switch (ch) {
		case 'b': bytes = strtoull(optarg, NULL, 0); break;
		case 'e': entry = strtoull(optarg, NULL, 0); break;
		case 'f': fmt = optarg; break;
		case 'o': out = optarg; break;
		case 'S': nsyms = strtoull(optarg, NULL, 0); break;
		case 's': symfile = optarg; break;
		default: goto usage;
		}
	}
	if (fmt == NULL || bytes == 0 || entry == 0 || nsyms == 0) {
usage:
		fprintf(stderr, "usage: mksimlog -f gem5|nicbm|ns3|switch|qemu|corundum|e1000|nslog "
		    "-b BYTES [-e ENTRY] [-S NSYMS] [-s SYMFILE] [-o FILE]\n");
		return 2;
	}
	f = out != NULL ? fopen(out, "w") : stdout;
	if (f == NULL)
		err(1, "%s", out);
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	/* function starts: 16-byte aligned, spread over 32 MB of kernel text */
	if ((syms = malloc(nsyms * sizeof(*syms))) == NULL)
		err(1, NULL);
	for (i = 0; i < nsyms; i++)
		syms[i] = KBASE + (i * (32ULL << 20) / nsyms & ~15ULL);
	if (symfile != NULL) {
		FILE *s = fopen(symfile, "w");

		if (s == NULL)
			err(1, "%s", symfile);
		fprintf(s, "vmlinux:     file format elf64-x86-64\n\nSYMBOL TABLE:\n");
		for (i = 0; i < nsyms; i++)
			fprintf(s, "%016" PRIx64 " %c     F .text\t%016" PRIx64 " fn_%" PRIu64 "\n",
			    syms[i], i % 3 ? 'g' : 'l', (uint64_t)0x80, i);
		if (fclose(s) != 0)
			err(1, "%s", symfile);
	}
	while (written < bytes) {
		int k = 0;

		tick += 1 + rnd() % 500;
		n++;
		if (strcmp(fmt, "gem5") == 0) {
			uint64_t r = rnd();

			if (n % 4000 == 0)
				k = fprintf(f, "%" PRIu64 ": system.pc.simbricks_0: simbricks-pci: "
				    "sending write addr c0508000 size 4 id %" PRIu64 " bar 0 offs "
				    "108000 posted 1\n", tick, (uint64_t)94469376954304ULL + n);
			else if (n % 4000 == 1)
				k = fprintf(f, "%" PRIu64 ": system.pc.simbricks_0: simbricks-pci: "
				    "received DMA read id %" PRIu64 " addr 100240060 size 62\n",
				    tick, (uint64_t)94113551511792ULL + n);
			else if (n % 4000 == 2)
				k = fprintf(f, "%" PRIu64 ": global: simbricks: sending sync "
				    "message for ts=%" PRIu64 "\n", tick, tick - (uint64_t)1000000000000);
			else if (r % entry == 0)
				k = fprintf(f, "%" PRIu64 ": system.switch_cpus: A0 T0 : 0x%"
				    PRIx64 "    : push   rbp : IntAlu :  D=0x0000000000000000\n",
				    tick, syms[(r >> 16) % nsyms]);
			else if (r % 3 == 1)
				k = fprintf(f, "%" PRIu64 ": system.switch_cpus: A0 T0 : 0x%"
				    PRIx64 ". %d :   %s\n", tick, (uint64_t)(KBASE + ((r >> 20) % (32u << 20))),
				    (int)((r >> 8) % 4), micro[(r >> 12) % 4]);
			else
				k = fprintf(f, "%" PRIu64 ": system.switch_cpus: A0 T0 : 0x%"
				    PRIx64 "    : %s : IntAlu :  D=0x%016" PRIx64 "\n", tick,
				    (uint64_t)(KBASE + ((r >> 20) % (32u << 20)) + 1), mnem[(r >> 8) % 10], r);
		} else if (strcmp(fmt, "nicbm") == 0) {
			uint64_t op = 0x55ea69870000ULL + (n % 65536) * 0x40;

			switch (n % 8) {
			case 0: k = fprintf(f, "info: main_time = %" PRIu64 ": nicbm: write(off=0x108000, len=4, val=0x1, posted=1)\n", tick); break;
			case 1: k = fprintf(f, "info: main_time = %" PRIu64 ": nicbm: issuing dma op 0x%" PRIx64 " addr 0x100240060 len 16 pending 0\n", tick, op); break;
			case 2: k = fprintf(f, "info: main_time = %" PRIu64 ": nicbm: executing dma op 0x%" PRIx64 " addr 0x100240060 len 16 pending 1\n", tick, op); break;
			case 3: k = fprintf(f, "info: main_time = %" PRIu64 ": nicbm: completed dma read op 0x%" PRIx64 " addr 0x100240060 len 16\n", tick, op); break;
			case 4: k = fprintf(f, "info: main_time = %" PRIu64 ": nicbm: eth tx: len 98\n", tick); break;
			case 5: k = fprintf(f, "info: main_time = %" PRIu64 ": nicbm: eth rx: port 0 len 98\n", tick); break;
			case 6: k = fprintf(f, "info: main_time = %" PRIu64 ": nicbm: read(off=0x80300, len=4, val=0x3)\n", tick); break;
			default: k = fprintf(f, "info: main_time = %" PRIu64 ": nicbm: issue MSI-X interrupt vec 1\n", tick); break;
			}
		} else if (strcmp(fmt, "qemu") == 0) {
			/* QEMU's clock in ns; warn_report's envelope */
			static const char *const w = "qemu-system-x86_64: warning: simbricks_";
			uint64_t ns = tick / 1000;

			switch (n % 16) {
			case 0: k = fprintf(f, "%smmio_rw: finished write (%" PRIu64 ") addr=108000 size=4 val=%" PRIx64 "\n", w, ns, n & 0x3ff); break;
			case 1: case 4: case 7: case 10: case 13:
				k = fprintf(f, "%stimer_poll: ts=%" PRIu64 " sync_ts=%" PRIu64 "\n", w, ns, ns + 500); break;
			case 2: k = fprintf(f, "%scomm_d2h_process: ts=%" PRIu64 " type=64\n", w, ns); break;
			case 3: case 6: case 9: case 12: case 15:
				k = fprintf(f, "%stimer_poll: done, next=%" PRIu64 "\n", w, tick + 500000); break;
			case 5: k = fprintf(f, "%scomm_d2h_process: ts=%" PRIu64 " type=65\n", w, ns); break;
			case 8: k = fprintf(f, "%scomm_d2h_process: ts=%" PRIu64 " type=66\n", w, ns); break;
			case 11: k = fprintf(f, "%smmio_rw: starting wait for read (%" PRIu64 ") addr=34800 size=4\n", w, ns); break;
			default: k = fprintf(f, "%smmio_rw: done (%" PRIu64 ") a=34800 s=4 val=0\n%stimer_sync: ts=%" PRIu64 " pts=%" PRIu64 " npts=%" PRIu64 "\n", w, ns, w, ns, ns * 1000, ns * 1000 + 500000); break;
			}
		} else if (strcmp(fmt, "corundum") == 0) {
			static const char *const pkt = "01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 11 12 13 14 15 16 17 18 19 1A 1B 1C 1D 1E 1F 20 21 22 23 24 25 26 27 28 29 2A 2B 2C 2D 2E 2F 30 31 32 33 34 35 36 37 38 39 3A 3B 3C ";

			switch (n % 10) {
			case 0: k = fprintf(f, "info: h2d_write ts=%" PRIu64 " bar=0 offset=0x200018 len=4 posted=1 data=%02X 00 00 00 \n", tick, (unsigned)(n & 0xff)); break;
			case 1: k = fprintf(f, "info: CorundumAXILManager::write_done() ts=%" PRIu64 "  id=%" PRIu64 "  addr=0x200018 posted=1 data=01 00 00 00 00 00 00 00 \n", tick, (uint64_t)94469376954304ULL + n); break;
			case 2: k = fprintf(f, "info: CorundumAXISubordinateRead::doRead() ts=%" PRIu64 " id=%" PRIu64 " addr=0x12340000 len=16\n", tick, (uint64_t)1 << 32 | n); break;
			case 3: k = fprintf(f, "info: CorundumAXISubordinateRead::doRead() ts=%" PRIu64 " id=%" PRIu64 " addr=0x12350000 len=60\n", tick, (uint64_t)1 << 32 | n); break;
			case 4: k = fprintf(f, "info: %" PRIu64 " corundum verilator packet_d2n try packet transmission\n", tick); break;
			case 5: k = fprintf(f, "info: %" PRIu64 " corundum verilator packet_d2n transmitted packet: packet len=60, packet data=%s\n", tick, pkt); break;
			case 6: k = fprintf(f, "info: CorundumAXISubordinateWrite::doWrite() ts=%" PRIu64 " id=%u addr=0x12360000 len=32 data=00 00 00 00 01 00 00 00 3C 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 \n", tick, (unsigned)(n % 4)); break;
			case 7: k = fprintf(f, "info: MsiInterruptHandler::step: MSI interrupt ts=%" PRIu64 ", msi_irq=1\ninfo: MsiInterruptHandler::msi_issue: MSI interrupt ts=%" PRIu64 ", vec=0\n", tick, tick); break;
			case 8: k = fprintf(f, "info: %" PRIu64 " corundum verilator n2d_recv received packet: packet data=%s\n", tick, pkt); break;
			default: k = fprintf(f, "info: h2d_read ts=%" PRIu64 " bar=0 offset=0x100010 len=4\ninfo: CorundumAXILManager::read_done() ts=%" PRIu64 "  id=%" PRIu64 "  addr=0x100010 data=05 00 00 00 00 00 00 00 \n", tick, tick + 12000, (uint64_t)94469181196688ULL + n);
				tick += 12000;
				break;
			}
		} else if (strcmp(fmt, "e1000") == 0) {
			static const char *const l[] = {
			    "Ethernet: Wrote device register 0x3818 value 0x5\n",
			    "EthernetSM: TXS: TX Tail pointer updated\n",
			    "EthernetDesc: [TxDesc] Fetching descriptors head: 4 tail: 5 len: 256 cachePnt: 4 max_to_fetch: 1 descleft: 1\n",
			    "EthernetDesc: [TxDesc] Fetching descriptors at 0x1234040 (0x1234040), size: 0x10\n",
			    "EthernetDesc: [TxDesc] Fetching complete cachePnt 4 -> 5\n",
			    "EthernetDesc: Starting DMA of packet at offset 0\n",
			    "EthernetDesc: DMA of packet complete\n",
			    "EthernetDesc: ------Packet of 98 bytes ready for transmission-------\n",
			    "EthernetSM: TxFIFO: Successful transmit, bytes available in fifo: 393216\n",
			    "EthernetDesc: [TxDesc] Begining DMA of 1 descriptors\n",
			    "EthernetDesc: [TxDesc] Writeback complete curHead 4 -> 5\n",
			    "EthernetIntr: EINT: postInterrupt() curTick(): 1000 itr: 0 interval: 0\n",
			    "EthernetIntr: EINT: Posting interrupt to CPU now. Vector 0x80000083\n",
			    "Ethernet: Read device register 0xc0\n",
			    "EthernetIntr: EINT: Clearing interrupt to CPU now. Vector 0\n",
			    "Ethernet: RxFIFO: Receiving pcakte from wire\n",
			    "EthernetDesc: Packet Length: 98 Desc Size: 2048\n",
			    "EthernetDesc: Packet written to memory updating Descriptor\n" };

			k = fprintf(f, "%" PRIu64 ": %s", tick, l[n % 18]);
		} else if (strcmp(fmt, "switch") == 0) {
			uint64_t r = rnd();
			unsigned in = (unsigned)(r % 16), eg = (unsigned)((r >> 8) % 15), o;

			eg += eg >= in;	/* never back eg of the ingress */
			tick += 1000 * (1 + (r >> 20) % 8);
			if (n % 50 == 0) {
				for (o = 0, k = 0; o < 16 && k >= 0; o++)
					if (o != in)
						k += fprintf(f, "%20" PRIu64 ": [P %u -> %u] %"
						    PRIx64 " -> ffffffffff [ARP] %8X -> %8X\n",
						    tick, in, o, (uint64_t)0x3412005452ULL + in,
						    0x4001a8c0u + (in << 24), 0xfa40a8c0u);
			} else if (n % 997 == 0) {
				k = fprintf(f, "%20" PRIu64 ": [P %u -> %u] %" PRIx64 " -> %"
				    PRIx64 " unknown eth type\n", tick, in, eg,
				    (uint64_t)0x3412005452ULL + in, (uint64_t)0x3412005452ULL + eg);
			} else if (n % 10007 == 0) {
				k = fprintf(f, "main_time = %" PRIu64 "\n", tick);
			} else {
				k = fprintf(f, "%20" PRIu64 ": [P %u -> %u] %" PRIx64 " -> %"
				    PRIx64 " [ IP] %8X -> %8X len: %u\n", tick, in, eg,
				    (uint64_t)0x3412005452ULL + in, (uint64_t)0x3412005452ULL + eg,
				    0x0140a8c0u + (in << 24), 0x0140a8c0u + (eg << 24),
				    (unsigned)(60 + (r >> 32) % 1455));
			}
		} else if (strcmp(fmt, "nslog") == 0) {
			uint64_t r = rnd(), dev = 0x55f7d4a31490ULL, pk = 0x55f7d4a772c0ULL;
			unsigned in = (unsigned)(r % 9), eg = (unsigned)((r >> 8) % 8), o;
			char t[40];

			eg += eg >= in;
			if (n == 1)
				for (o = 0; o < 9; o++)
					written += (uint64_t)fprintf(f, "+0.000000000000s -1 %s:SetIfIndex(0x%"
					    PRIx64 ", %u)\n", o == 8 ? "SimpleNetDevice" :
					    "SimbricksNetDevice", dev + o * 0x1c0, o + 1);
			tick += 1000 * (1 + (r >> 20) % 8);
			snprintf(t, sizeof(t), "+%" PRIu64 ".%012" PRIu64 "s 0 ",
			    tick / UINT64_C(1000000000000), tick % UINT64_C(1000000000000));
			k = fprintf(f, in == 8 ? "%sSimpleNetDevice:Receive(0x%" PRIx64
			    ", 0x%" PRIx64 ", 2048, 02:00:00:00:00:%02x, 02:00:00:00:00:%02x)\n" :
			    "%sSimbricksNetDevice:RxInContext(0x%" PRIx64 ")\n", t,
			    dev + in * 0x1c0, pk + (r >> 40) % 64 * 0x70, eg, in);
			k += fprintf(f, "%sBridgeNetDevice:ReceiveFromDevice()\n"
			    "%sBridgeNetDevice:ReceiveFromDevice(): [DEBUG] UID is %" PRIu64 "\n"
			    "%sBridgeNetDevice:GetAddress()\n%sBridgeNetDevice:ForwardUnicast()\n"
			    "%sBridgeNetDevice:ForwardUnicast(): [DEBUG] LearningBridgeForward "
			    "(incomingPort=ns3::SimbricksNetDevice, packet=0x%" PRIx64 ", protocol="
			    "2048, src=02:00:00:00:00:%02x, dst=02:00:00:00:00:%02x)\n"
			    "%sBridgeNetDevice:Learn()\n%sBridgeNetDevice:GetLearnedState()\n"
			    "%sBridgeNetDevice:ForwardUnicast(): [LOGIC] Learning bridge state says "
			    "to use port `ns3::SimbricksNetDevice'\n", t, t, n, t, t, t,
			    pk + (r >> 40) % 64 * 0x70, in, eg, t, t, t);
			k += fprintf(f, "%s%s:SendFrom(0x%" PRIx64 ", 0x%" PRIx64 ", 02-06-02:00:"
			    "00:00:00:%02x, 02-06-02:00:00:00:00:%02x, 2048)\n", t, eg == 8 ?
			    "SimpleNetDevice" : "SimbricksNetDevice", dev + eg * 0x1c0,
			    pk + (r >> 46) % 64 * 0x70, in, eg);
			if (eg == 8)
				k += fprintf(f, "%sQueue:GetNPackets(0x55f7d4a7fc10)\n%sQueue:"
				    "GetNPackets(): [LOGIC] returns 1\n%sSimpleNetDevice:"
				    "FinishTransmission(0x%" PRIx64 ")\n", t, t, t, dev + 8 * 0x1c0);
		} else {
			static const char *ctx[] = { "1/$ns3::Node/DeviceList/2/$ns3::CosimNetDevice/RxPacketFromAdapter",
			    "1/$ns3::Node/DeviceList/1/$ns3::SimpleNetDevice/TxQueue/Enqueue",
			    "1/$ns3::Node/DeviceList/1/$ns3::SimpleNetDevice/TxQueue/Dequeue",
			    "0/$ns3::Node/DeviceList/2/$ns3::CosimNetDevice/TxPacketToAdapter" };
			static const char *ip = "ns3::Ipv4Header (tos 0x0 DSCP Default ECN Not-ECT ttl 64 id 1 protocol 17 offset (bytes) 0 flags [DF] length: 84 192.168.64.1 > 192.168.64.2) Payload (size=56)";
			unsigned c = (unsigned)(n % 4);

			k = fprintf(f, "%c  %" PRIu64 " /$ns3::NodeListPriv/NodeList/%s Packet-Uid=%" PRIu64
			    " Intersting=true %s%s\n", c == 0 || c == 1 ? '+' : '-', tick, ctx[c], n / 4,
			    c == 0 || c == 3 ? "ns3::EthernetHeader ( length/type=0x800, source=b0:9a:ac:67:3c:98, destination=a8:32:06:8c:52:b1) " : "",
			    ip);
		}
		if (k < 0)
			err(1, "write");
		written += (uint64_t)k;
	}
	if (fclose(f) != 0)
		err(1, "%s", out != NULL ? out : "stdout");
	free(syms);
	return 0;
}
