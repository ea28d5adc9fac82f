// ns-3's pcap traces: n0 --CSMA-- n1 --point-to-point 5 Mbps-- n2, a UDP
// burst from n0 to n2 that overflows n1's FIFO queue disc (5 packets) in
// front of a 2-packet device queue; EnablePcapAll writes <prefix>-N-D.pcap
// per device (Ethernet for CSMA, PPP for point-to-point).  No NS_LOG.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include <fstream>
#include <sstream>
using namespace ns3;

static std::ofstream truth;

static void
Rec(const char* kind, std::string ctx, Ptr<const Packet> p)
{
    unsigned n = 0, d = 0;
    sscanf(ctx.c_str(), "/NodeList/%u/DeviceList/%u", &n, &d);
    truth << kind << "," << Simulator::Now().GetPicoSeconds() << "," << n << "," << d << ","
          << p->GetUid() << "\n";
}
// A sniffed frame: also its IPv4 (ARP: protocol) addresses, "src>dst", so
// that two records of one device at one time tell apart (an echo server
// turns the request round at once)
static void
Sniff(std::string ctx, Ptr<const Packet> p)
{
    unsigned n = 0, d = 0;
    sscanf(ctx.c_str(), "/NodeList/%u/DeviceList/%u", &n, &d);
    Ptr<Packet> q = p->Copy();
    uint16_t proto = 0;
    if (ctx.find("CsmaNetDevice") != std::string::npos) {
        EthernetHeader eth;
        q->RemoveHeader(eth);
        proto = eth.GetLengthType();
    } else {
        PppHeader ppp;
        q->RemoveHeader(ppp);
        proto = ppp.GetProtocol() == 0x0021 ? 0x0800 : 0;
    }
    std::ostringstream a;
    if (proto == 0x0800) {
        Ipv4Header ip;
        q->PeekHeader(ip);
        a << ip.GetSource() << ">" << ip.GetDestination();
    } else if (proto == 0x0806) {
        ArpHeader arp;
        q->PeekHeader(arp);
        a << arp.GetSourceIpv4Address() << ">" << arp.GetDestinationIpv4Address();
    }
    truth << "sniff," << Simulator::Now().GetPicoSeconds() << "," << n << "," << d << ","
          << p->GetUid() << "," << a.str() << "\n";
}
static void Enq(std::string c, Ptr<const Packet> p) { Rec("enq", c, p); }
static void Deq(std::string c, Ptr<const Packet> p) { Rec("deq", c, p); }
static void Drp(std::string c, Ptr<const Packet> p) { Rec("drop", c, p); }

static void
Qd(const char* kind, std::string ctx, Ptr<const QueueDiscItem> item)
{
    unsigned n = 0, d = 0;
    sscanf(ctx.c_str(), "/NodeList/%u/$ns3::TrafficControlLayer/RootQueueDiscList/%u", &n, &d);
    truth << kind << "," << Simulator::Now().GetPicoSeconds() << "," << n << "," << d << ","
          << item->GetPacket()->GetUid() << "\n";
}
static void QEnq(std::string c, Ptr<const QueueDiscItem> i) { Qd("qd-enq", c, i); }
static void QDeq(std::string c, Ptr<const QueueDiscItem> i) { Qd("qd-deq", c, i); }
static void QDrp(std::string c, Ptr<const QueueDiscItem> i) { Qd("qd-drop", c, i); }

int
main(int argc, char* argv[])
{
    std::string truthFile = "pcap-truth.csv", pcap = "pcap";
    uint32_t burst = 14;
    CommandLine cmd(__FILE__);
    cmd.AddValue("truth", "uid bookkeeping output", truthFile);
    cmd.AddValue("pcap", "pcap file prefix", pcap);
    cmd.AddValue("burst", "packets in the UDP burst", burst);
    bool nanosec = false;
    cmd.AddValue("nanosec", "nanosecond pcap timestamps (default: microseconds)", nanosec);
    cmd.Parse(argc, argv);
    if (nanosec)
        Config::SetDefault("ns3::PcapFileWrapper::NanosecMode", BooleanValue(true));
    Config::SetDefault("ns3::ArpL3Protocol::RequestJitter",
                       StringValue("ns3::ConstantRandomVariable[Constant=0.0]"));

    NodeContainer n;
    n.Create(3);
    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", StringValue("100Mbps"));
    csma.SetChannelAttribute("Delay", StringValue("2us"));
    NetDeviceContainer d01 = csma.Install(NodeContainer(n.Get(0), n.Get(1)));
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("5Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("10us"));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("2p"));
    NetDeviceContainer d12 = p2p.Install(NodeContainer(n.Get(1), n.Get(2)));

    InternetStackHelper stack;
    stack.Install(n);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("5p"));
    tch.Install(d12.Get(0));
    Ipv4AddressHelper ip;
    ip.SetBase("10.1.1.0", "255.255.255.0");
    ip.Assign(d01);
    ip.SetBase("10.1.2.0", "255.255.255.0");
    Ipv4InterfaceContainer i12 = ip.Assign(d12);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    UdpEchoServerHelper echo(7);
    echo.Install(n.Get(2)).Start(Seconds(0.001));
    UdpEchoClientHelper warm(i12.GetAddress(1), 7);
    warm.SetAttribute("MaxPackets", UintegerValue(1));
    warm.SetAttribute("PacketSize", UintegerValue(32));
    warm.Install(n.Get(0)).Start(Seconds(0.002));
    UdpClientHelper bl(i12.GetAddress(1), 9);
    bl.SetAttribute("MaxPackets", UintegerValue(burst));
    bl.SetAttribute("Interval", TimeValue(MicroSeconds(20)));
    bl.SetAttribute("PacketSize", UintegerValue(500));
    bl.Install(n.Get(0)).Start(Seconds(0.004));

    truth.open(truthFile);
    truth << "kind,time_ps,node,dev,uid,addr\n";
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::CsmaNetDevice/PromiscSniffer",
                    MakeCallback(&Sniff));
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/PromiscSniffer",
                    MakeCallback(&Sniff));
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/TxQueue/Enqueue",
                    MakeCallback(&Enq));
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/TxQueue/Dequeue",
                    MakeCallback(&Deq));
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/TxQueue/Drop",
                    MakeCallback(&Drp));
    Config::Connect("/NodeList/*/$ns3::TrafficControlLayer/RootQueueDiscList/*/Enqueue",
                    MakeCallback(&QEnq));
    Config::Connect("/NodeList/*/$ns3::TrafficControlLayer/RootQueueDiscList/*/Dequeue",
                    MakeCallback(&QDeq));
    Config::Connect("/NodeList/*/$ns3::TrafficControlLayer/RootQueueDiscList/*/Drop",
                    MakeCallback(&QDrp));
    csma.EnablePcapAll(pcap);
    p2p.EnablePcapAll(pcap);
    Simulator::Stop(Seconds(0.01));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
