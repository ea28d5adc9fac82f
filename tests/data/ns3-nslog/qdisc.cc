// A router with a queue disc, at ns-3's default (ns) time resolution:
// n0 --1 Gbps-- n1 --5 Mbps-- n2 over SimpleNetDevices (as SimBricks'
// NS3Net links are).  A UDP burst from n0 to n2 overflows n1's FIFO queue
// disc (5 packets) in front of a 2-packet device queue.  NS_LOG of the
// queue disc, the traffic-control layer, SimpleNetDevice and the queues.
// Writes the uid of every packet at every trace source to --truth.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"
#include <fstream>
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
    std::string truthFile = "qdisc-truth.csv";
    uint32_t burst = 12;
    CommandLine cmd(__FILE__);
    cmd.AddValue("truth", "uid bookkeeping output", truthFile);
    cmd.AddValue("burst", "packets in the UDP burst", burst);
    cmd.Parse(argc, argv);
    // ARP requests otherwise wait a random jitter of up to 10 ms
    Config::SetDefault("ns3::ArpL3Protocol::RequestJitter",
                       StringValue("ns3::ConstantRandomVariable[Constant=0.0]"));
    LogLevel lv = LogLevel(LOG_LEVEL_ALL | LOG_PREFIX_ALL);
    LogComponentEnable("QueueDisc", lv);
    LogComponentEnable("FifoQueueDisc", lv);
    LogComponentEnable("TrafficControlLayer", lv);
    LogComponentEnable("SimpleNetDevice", lv);
    LogComponentEnable("DropTailQueue", lv);
    LogComponentEnable("Queue", lv);

    NodeContainer n;
    n.Create(3);
    SimpleNetDeviceHelper fast;
    fast.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    fast.SetChannelAttribute("Delay", StringValue("2us"));
    NetDeviceContainer d01 = fast.Install(NodeContainer(n.Get(0), n.Get(1)));
    SimpleNetDeviceHelper slow;
    slow.SetDeviceAttribute("DataRate", StringValue("5Mbps"));
    slow.SetChannelAttribute("Delay", StringValue("10us"));
    slow.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("2p"));
    NetDeviceContainer d12 = slow.Install(NodeContainer(n.Get(1), n.Get(2)));

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
    truth << "kind,time_ps,node,dev,uid\n";
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::SimpleNetDevice/TxQueue/Enqueue",
                    MakeCallback(&Enq));
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::SimpleNetDevice/TxQueue/Dequeue",
                    MakeCallback(&Deq));
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::SimpleNetDevice/TxQueue/Drop",
                    MakeCallback(&Drp));
    Config::Connect("/NodeList/*/$ns3::TrafficControlLayer/RootQueueDiscList/*/Enqueue",
                    MakeCallback(&QEnq));
    Config::Connect("/NodeList/*/$ns3::TrafficControlLayer/RootQueueDiscList/*/Dequeue",
                    MakeCallback(&QDeq));
    Config::Connect("/NodeList/*/$ns3::TrafficControlLayer/RootQueueDiscList/*/Drop",
                    MakeCallback(&QDrp));
    Simulator::Stop(Seconds(0.01));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
