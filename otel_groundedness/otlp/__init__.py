"""OTLP in its wire forms, shared by the hosts: protobuf requests to neutral records and back
(``codec``, ``values``), OTLP/JSON documents (``json_documents``), the Collector ``file`` exporter's
files (``files``, ``encoded``) and a request cut down to one worker's traces (``partition``)."""
