"""Capture what Confluent's own Python client (confluent-kafka) registers and writes for
Protobuf, for ConfluentPythonVectorsTests, so that those tests run without Python.

  protoc --python_out=/tmp/py -I registry/src/test/protobuf \
      lockstep/test/orders.proto lockstep/test/invoice.proto lockstep/test/money.proto
  /usr/bin/python3 capture_vectors.py /tmp/py > vectors.json

(Debian's protoc, apt-get install protobuf-compiler, matches Debian's python3-protobuf.)

The client's ProtobufSerializer is given a schema registry client that records each
registration and look-up and answers ids 1, 2, ... in order, as an empty registry would.
"""
import json
import sys

import confluent_kafka
import google.protobuf
from confluent_kafka.schema_registry import RegisteredSchema, SchemaRegistryClient
from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
from confluent_kafka.serialization import MessageField, SerializationContext


class RecordingRegistry(SchemaRegistryClient):
    """An empty registry in memory: each new schema of a subject gets the next id, version 1."""

    def __init__(self):
        self.registrations = []

    def register_schema(self, subject_name, schema):
        for registration in self.registrations:
            if registration["subject"] == subject_name and registration["schema"] == schema.schema_str:
                return registration["id"]
        self.registrations.append({
            "subject": subject_name,
            "schema": schema.schema_str,
            "references": [{"name": ref.name, "subject": ref.subject, "version": ref.version}
                           for ref in schema.references],
            "id": len(self.registrations) + 1,
        })
        return len(self.registrations)

    def lookup_schema(self, subject_name, schema):
        schema_id = self.register_schema(subject_name, schema)
        return RegisteredSchema(schema_id, schema, subject_name, 1)


def main(generated):
    # The modules protoc generated for Python, as an application of that client imports them.
    sys.path.insert(0, generated)
    from lockstep.test import invoice_pb2, money_pb2, orders_pb2

    messages = {"lockstep.test.Envelope": orders_pb2.Envelope, "lockstep.test.Order": orders_pb2.Order,
                "lockstep.test.Order.Line": orders_pb2.Order.Line,
                "lockstep.test.invoice.Invoice": invoice_pb2.Invoice,
                "lockstep.test.money.Money": money_pb2.Money}

    def message(name, **fields):
        return messages[name](**fields)

    registry = RecordingRegistry()
    records = []
    written = [
        ("orders", message("lockstep.test.Envelope", source="web")),
        ("orders", message("lockstep.test.Order", order_id="o-1", customer="c-7", amount_cents=1250)),
        ("orders", message("lockstep.test.Order.Line", sku="sku-1", quantity=3)),
        ("invoices", message("lockstep.test.invoice.Invoice", id="i-1",
                             total=message("lockstep.test.money.Money", currency="EUR", cents=990))),
    ]
    for topic, value in written:
        serializer = ProtobufSerializer(type(value), registry, {"auto.register.schemas": True})
        framed = serializer(value, SerializationContext(topic, MessageField.VALUE))
        records.append({"topic": topic, "message": value.DESCRIPTOR.full_name, "framed": framed.hex()})
    json.dump({
        "client": "confluent-kafka %s, protobuf %s" % (confluent_kafka.version()[0], google.protobuf.__version__),
        "registrations": registry.registrations,
        "records": records,
    }, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
