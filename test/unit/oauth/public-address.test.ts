import { describe, expect, it } from "vitest";
import { isPrivateHost, parseIPv6 } from "../../../src/oauth/public-address";

/** The guard as a client_id meets it (cimd.ts): through the URL parser, which normalises the host first. */
const refused = (host: string): boolean => isPrivateHost(new URL(`https://${host}/client.json`).hostname);

describe("IPv6 parsing", () => {
  it("reads every compression and an embedded dotted quad", () => {
    expect(parseIPv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("fe80::")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("2001:db8:0:0:0:0:2:1")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 2, 1]);
    expect(parseIPv6("2001:db8::2:1")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 2, 1]);
    expect(parseIPv6("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6("64:ff9b::10.1.2.3")).toEqual([0x64, 0xff9b, 0, 0, 0, 0, 0x0a01, 0x0203]);
    expect(parseIPv6("0:0:0:0:0:0:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0, 0x7f00, 1]);
  });

  it("refuses what is no address", () => {
    for (const bad of ["1::2::3", "12345::", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "::1.2.3", "1.2.3.4::", "::256.0.0.1", "g::1", "1:2:3:4:5:6:7::8", "::1%eth0", ""]) {
      expect(parseIPv6(bad), bad).toBeNull();
    }
  });
});

describe("the metadata-document address guard", () => {
  it("refuses names with a trailing dot", () => {
    for (const host of ["localhost.", "metadata.google.internal.", "printer.local.", "intranet.", "client.example."]) {
      expect(refused(host), host).toBe(true);
      expect(isPrivateHost(host), host).toBe(true);
    }
  });

  it("refuses single labels and names that only mean something inside a network", () => {
    for (const host of ["localhost", "intranet", "metadata", "printer.local", "metadata.google.internal", "a.localhost", "nas.lan", "router.home.arpa"]) {
      expect(refused(host), host).toBe(true);
    }
  });

  it("refuses loopback and private IPv4 in every notation the URL parser reads", () => {
    for (const host of ["127.0.0.1", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "10.0.0.7", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "198.18.0.1", "192.0.0.8"]) {
      expect(refused(host), host).toBe(true);
    }
  });

  it("refuses IPv6 that embeds a private or loopback IPv4: NAT64, 6to4, compatible, mapped, translated", () => {
    for (const host of [
      "[::7f00:1]",
      "[::127.0.0.1]",
      "[0:0:0:0:0:0:7f00:1]",
      "[64:ff9b::7f00:1]",
      "[64:ff9b::127.0.0.1]",
      "[64:ff9b::a00:1]",
      "[64:ff9b:0:0:0:0:c0a8:101]",
      "[2002:7f00:1::1]",
      "[2002:a9fe:a9fe::]",
      "[2002:c0a8:101:0:0:0:0:1]",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "[::ffff:a9fe:a9fe]",
      "[0:0:0:0:0:ffff:10.0.0.1]",
      "[::ffff:0:7f00:1]",
    ]) {
      expect(refused(host), host).toBe(true);
      expect(isPrivateHost(host), host).toBe(true);
    }
  });

  it("refuses loopback, unspecified, unique-local, link-local, site-local and multicast IPv6", () => {
    for (const host of ["[::1]", "[0:0:0:0:0:0:0:1]", "[::]", "[fc00::1]", "[fd12:3456::1]", "[fe80::1]", "[febf::1]", "[fec0::1]", "[feff::1]", "[ff02::1]", "[64:ff9b:1::1]", "[100::1]"]) {
      expect(refused(host), host).toBe(true);
    }
  });

  it("refuses documentation, ORCHID and Teredo blocks: no real client's document lives there", () => {
    for (const host of ["[2001:db8::1]", "[3fff::1]", "[2001::1]", "[2001:10::1]", "[2001:20::1]", "192.0.2.1", "198.51.100.7", "203.0.113.9"]) {
      expect(refused(host), host).toBe(true);
    }
  });

  it("lets public names and addresses through, in every notation", () => {
    for (const host of [
      "example.com",
      "client.example",
      "claude.ai",
      "sub.domain.example.org",
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "100.128.0.1",
      "192.0.3.1",
      "[2606:4700:4700::1111]",
      "[2606:4700:4700:0:0:0:0:1111]",
      "[2a00:1450:4001:80b::200e]",
      "[64:ff9b::808:808]",
      "[64:ff9b::8.8.8.8]",
      "[2002:808:808::1]",
      "[::ffff:8.8.8.8]",
    ]) {
      expect(refused(host), host).toBe(false);
    }
  });

  it("refuses a malformed bracketed host rather than guessing", () => {
    expect(isPrivateHost("[not-an-address]")).toBe(true);
    expect(isPrivateHost("[::1")).toBe(true);
  });
});
