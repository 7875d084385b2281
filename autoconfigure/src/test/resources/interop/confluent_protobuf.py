"""Confluent's own Python client (confluent-kafka) writing and reading Protobuf orders
through a schema registry, for ConfluentPythonClientTests.

  register <bootstrap> <registry> <topic> 0       register the order schema under <topic>-value
                                                   as the client's serializer would
  produce <bootstrap> <registry> <topic> <count>   write orders "order-1".."order-<count>"
                                                   (auto.register.schemas from $AUTO_REGISTER)
  consume <bootstrap> <registry> <topic> <count>   read <count> records read_committed and
                                                   print "key id status amount_cents" lines
"""
import base64
import os
import sys

from confluent_kafka import DeserializingConsumer, SerializingProducer
from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer
from confluent_kafka.serialization import StringDeserializer, StringSerializer
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory


def order_class():
    # lockstep/interop/order.proto, built as protoc would describe it.
    file = descriptor_pb2.FileDescriptorProto()
    file.name = "lockstep/interop/order.proto"
    file.package = "lockstep.interop"
    file.syntax = "proto3"
    # The options the .proto file shared with the Java side declares: the same descriptor.
    file.options.java_package = "dev.lockstep.autoconfigure.interop.test"
    file.options.java_multiple_files = True
    message = file.message_type.add()
    message.name = "Order"
    for number, (name, kind) in enumerate(
            [("id", descriptor_pb2.FieldDescriptorProto.TYPE_STRING),
             ("status", descriptor_pb2.FieldDescriptorProto.TYPE_STRING),
             ("amount_cents", descriptor_pb2.FieldDescriptorProto.TYPE_INT64)], start=1):
        field = message.field.add()
        field.name = name
        field.number = number
        field.type = kind
        field.label = descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return message_factory.MessageFactory(pool).GetPrototype(
        pool.FindMessageTypeByName("lockstep.interop.Order"))


def main(mode, bootstrap, registry, topic, count):
    order = order_class()
    client = SchemaRegistryClient({"url": registry})
    if mode == "register":
        # What the client's ProtobufSerializer registers: the file's descriptor, base64.
        text = base64.standard_b64encode(order.DESCRIPTOR.file.serialized_pb).decode("ascii")
        client.register_schema(topic + "-value", Schema(text, "PROTOBUF"))
    elif mode == "produce":
        auto_register = os.environ.get("AUTO_REGISTER", "true") == "true"
        producer = SerializingProducer({
            "bootstrap.servers": bootstrap,
            "key.serializer": StringSerializer("utf_8"),
            "value.serializer": ProtobufSerializer(order, client, {"auto.register.schemas": auto_register}),
        })
        for i in range(1, count + 1):
            producer.produce(topic, key="order-%d" % i,
                             value=order(id="o-%d" % i, status="paid", amount_cents=i))
        if producer.flush(60) != 0:
            sys.exit("not every order was delivered")
    else:
        consumer = DeserializingConsumer({
            "bootstrap.servers": bootstrap,
            "group.id": "confluent-python-reader-" + topic,
            "auto.offset.reset": "earliest",
            "isolation.level": "read_committed",
            "key.deserializer": StringDeserializer("utf_8"),
            "value.deserializer": ProtobufDeserializer(order),
        })
        consumer.subscribe([topic])
        read = 0
        idle = 0
        while read < count and idle < 120:
            record = consumer.poll(1.0)
            if record is None:
                idle += 1
                continue
            if record.error():
                sys.exit(str(record.error()))
            value = record.value()
            print(record.key(), value.id, value.status, value.amount_cents, flush=True)
            read += 1
        consumer.close()
        if read < count:
            sys.exit("read %d of %d" % (read, count))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
