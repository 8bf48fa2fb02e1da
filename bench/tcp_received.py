#!/usr/bin/env python3
"""tcp_received.py PID -- the bytes each TCP socket of process PID has
received so far, as JSON {"<inode>": bytes}: the kernel's tcp_info
(tcpi_bytes_received) of every IPv4/IPv6 TCP socket, read with sock_diag
netlink (what `ss -ti` shows as bytes_received), kept for the sockets
/proc/PID/fd holds.  bench/citus_close.sql reads it around a close for the
coordinator's backend: the bytes the workers (and the client) sent it.
"""
import json
import os
import socket
import struct
import sys

NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST, NLM_F_DUMP = 1, 0x300
NLMSG_DONE, NLMSG_ERROR = 3, 2
INET_DIAG_INFO = 2
TCPI_BYTES_RECEIVED = 128  # offset in struct tcp_info (Linux >= 4.1)


def inodes_of(pid):
    found = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            found.add(int(link[8:-1]))
    return found


def tcp_sockets(family):
    """(inode, bytes_received) of every TCP socket of this family."""
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG)
    # inet_diag_req_v2: family, protocol, ext, pad, states; then inet_diag_sockid
    req = struct.pack("=BBBBI", family, socket.IPPROTO_TCP, 1 << (INET_DIAG_INFO - 1), 0, 0xFFFFFFFF)
    req += b"\0" * 48
    s.send(struct.pack("=IHHII", 16 + len(req), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, 1, 0) + req)
    out = []
    while True:
        data = s.recv(1 << 20)
        off = 0
        while off + 16 <= len(data):
            length, kind = struct.unpack_from("=IH", data, off)
            if kind == NLMSG_DONE:
                s.close()
                return out
            if kind == NLMSG_ERROR:
                raise OSError("sock_diag error")
            msg = data[off + 16:off + length]
            # inet_diag_msg: 4 bytes, sockid (48), expires, rqueue, wqueue, uid, inode
            inode = struct.unpack_from("=I", msg, 4 + 48 + 16)[0]
            attr = 72
            received = None
            while attr + 4 <= len(msg):
                alen, atype = struct.unpack_from("=HH", msg, attr)
                if alen < 4:
                    break
                if atype == INET_DIAG_INFO and alen - 4 >= TCPI_BYTES_RECEIVED + 8:
                    received = struct.unpack_from("=Q", msg, attr + 4 + TCPI_BYTES_RECEIVED)[0]
                attr += (alen + 3) & ~3
            if received is not None:
                out.append((inode, received))
            off += (length + 3) & ~3


def main():
    mine = inodes_of(int(sys.argv[1]))
    result = {}
    for family in (socket.AF_INET, socket.AF_INET6):
        for inode, received in tcp_sockets(family):
            if inode in mine:
                result[str(inode)] = received
    print(json.dumps(result))


main()
