// Two ns-3 learning bridges ("switches", as SimBricks' NS3Net builds
// them) joined by a SimpleChannel with a small DropTailQueue, two hosts on
// each, UDP echo and a burst that overflows the inter-switch queue.
#include "ns3/applications-module.h"
#include "ns3/bridge-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include <fstream>
using namespace ns3;

static std::ofstream truth;

static void
Rec(const char* kind, std::string ctx, Ptr<const Packet> p)
{
    // ctx: /NodeList/N/DeviceList/D/...
    unsigned n = 0, d = 0;
    sscanf(ctx.c_str(), "/NodeList/%u/DeviceList/%u", &n, &d);
    truth << kind << "," << Simulator::Now().GetPicoSeconds() << "," << n << "," << d << ","
          << p->GetUid() << "\n";
}
static void Enq(std::string c, Ptr<const Packet> p) { Rec("enq", c, p); }
static void Deq(std::string c, Ptr<const Packet> p) { Rec("deq", c, p); }
static void Drp(std::string c, Ptr<const Packet> p) { Rec("drop", c, p); }

// Every device's receptions; not the bridge device's own (its upcalls of
// the frames it bridges are no reception of a port).
static bool
Rx(Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t, const Address&, const Address&,
   NetDevice::PacketType)
{
    if (DynamicCast<BridgeNetDevice>(dev))
        return true;
    truth << "rx," << Simulator::Now().GetPicoSeconds() << "," << dev->GetNode()->GetId() << ","
          << dev->GetIfIndex() << "," << p->GetUid() << "\n";
    return true;
}

int
main(int argc, char* argv[])
{
    std::string res = "ps", truthFile = "bridge-truth.csv";
    uint32_t burst = 10, echoes = 2;
    CommandLine cmd(__FILE__);
    cmd.AddValue("resolution", "ps (as SimBricks) or ns (ns-3's default)", res);
    cmd.AddValue("truth", "uid bookkeeping output", truthFile);
    cmd.AddValue("burst", "packets in the UDP burst", burst);
    cmd.AddValue("echoes", "UDP echo requests h0 -> h2", echoes);
    cmd.Parse(argc, argv);
    if (res == "ps")
        Time::SetResolution(Time::PS);
    // ARP requests otherwise wait a random jitter of up to 10 ms
    Config::SetDefault("ns3::ArpL3Protocol::RequestJitter",
                       StringValue("ns3::ConstantRandomVariable[Constant=0.0]"));
    LogLevel lv = LogLevel(LOG_LEVEL_ALL | LOG_PREFIX_ALL);
    LogComponentEnable("BridgeNetDevice", lv);
    LogComponentEnable("SimpleNetDevice", lv);
    LogComponentEnable("DropTailQueue", lv);
    LogComponentEnable("Queue", lv);

    NodeContainer sw, hosts;
    sw.Create(2);
    hosts.Create(4);
    SimpleNetDeviceHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    link.SetChannelAttribute("Delay", StringValue("500ns"));
    NetDeviceContainer hostDev, swPorts[2];
    for (uint32_t i = 0; i < 4; i++)
    {
        NetDeviceContainer l = link.Install(NodeContainer(hosts.Get(i), sw.Get(i / 2)));
        hostDev.Add(l.Get(0));
        swPorts[i / 2].Add(l.Get(1));
    }
    SimpleNetDeviceHelper trunk;
    trunk.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    trunk.SetChannelAttribute("Delay", StringValue("1us"));
    trunk.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("4p"));
    NetDeviceContainer t = trunk.Install(sw);
    swPorts[0].Add(t.Get(0));
    swPorts[1].Add(t.Get(1));
    BridgeHelper bridge;
    bridge.Install(sw.Get(0), swPorts[0]);
    bridge.Install(sw.Get(1), swPorts[1]);

    InternetStackHelper stack;
    stack.Install(hosts);
    Ipv4AddressHelper ip;
    ip.SetBase("10.0.0.0", "255.255.255.0");
    ip.Assign(hostDev);

    UdpEchoServerHelper echo(7);
    ApplicationContainer srv = echo.Install(hosts.Get(2));
    srv.Start(Seconds(0.001));
    UdpEchoClientHelper cl(Ipv4Address("10.0.0.3"), 7);
    cl.SetAttribute("MaxPackets", UintegerValue(echoes));
    cl.SetAttribute("Interval", TimeValue(MicroSeconds(200)));
    cl.SetAttribute("PacketSize", UintegerValue(64));
    ApplicationContainer c = cl.Install(hosts.Get(0));
    c.Start(Seconds(0.002));
    // h1 -> h3: one echo first (so ARP is resolved: the ARP cache holds
    // only 3 packets while it waits), then a burst that overflows the
    // 4-packet trunk queue
    UdpEchoServerHelper echo2(8);
    ApplicationContainer srv2 = echo2.Install(hosts.Get(3));
    srv2.Start(Seconds(0.001));
    UdpEchoClientHelper warm(Ipv4Address("10.0.0.4"), 8);
    warm.SetAttribute("MaxPackets", UintegerValue(1));
    warm.SetAttribute("PacketSize", UintegerValue(32));
    ApplicationContainer w = warm.Install(hosts.Get(1));
    w.Start(Seconds(0.0025));
    UdpClientHelper bl(Ipv4Address("10.0.0.4"), 9);
    bl.SetAttribute("MaxPackets", UintegerValue(burst));
    bl.SetAttribute("Interval", TimeValue(NanoSeconds(100)));
    bl.SetAttribute("PacketSize", UintegerValue(1000));
    ApplicationContainer b = bl.Install(hosts.Get(1));
    b.Start(Seconds(0.003));

    truth.open(truthFile);
    truth << "kind,time_ps,node,dev,uid\n";
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::SimpleNetDevice/TxQueue/Enqueue",
                    MakeCallback(&Enq));
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::SimpleNetDevice/TxQueue/Dequeue",
                    MakeCallback(&Deq));
    Config::Connect("/NodeList/*/DeviceList/*/$ns3::SimpleNetDevice/TxQueue/Drop",
                    MakeCallback(&Drp));
    for (uint32_t i = 0; i < NodeList::GetNNodes(); i++)
        NodeList::GetNode(i)->RegisterProtocolHandler(MakeCallback(&Rx), 0, nullptr, true);
    Simulator::Stop(Seconds(0.004));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
