from typing import Any

from rest_framework import serializers

from core.api_fields import StrictInput, TextField

from .fusion import FUSIONS
from .search.params import MAX_EXPANSION, MAX_TOP_K


class SearchRequestSerializer(StrictInput, serializers.Serializer[Any]):
    """POST /api/graphrag/query; a field left out takes its default."""

    query = TextField(max_length=2000, trim_whitespace=True)
    top_k = serializers.IntegerField(min_value=1, max_value=MAX_TOP_K, required=False)
    similarity_threshold = serializers.FloatField(min_value=0.0, max_value=1.0, required=False)
    use_keyword_search = serializers.BooleanField(required=False, default=True)
    keywords = serializers.ListField(
        child=TextField(max_length=100), max_length=20, required=False, allow_null=True
    )
    keyword_match_type = serializers.ChoiceField(choices=["any", "all"], required=False)
    keyword_boost = serializers.FloatField(min_value=0.0, max_value=1.0, required=False)
    max_hops = serializers.ChoiceField(choices=[1, 2], required=False)
    semantic_expansion_limit = serializers.IntegerField(
        min_value=0, max_value=MAX_EXPANSION, required=False
    )
    hierarchical_expansion_limit = serializers.IntegerField(
        min_value=0, max_value=MAX_EXPANSION, required=False
    )
    section_query = TextField(max_length=200, required=False, allow_null=True, allow_blank=True)
    use_section_routing = serializers.BooleanField(required=False, default=False)
    file_scope = serializers.ListField(
        child=TextField(max_length=1000),
        max_length=100,
        required=False,
        help_text="document ids, file names or file paths",
    )
    collection = TextField(max_length=200, required=False, allow_null=True, help_text="name or id")
    fusion = serializers.ChoiceField(choices=list(FUSIONS), required=False)


class ResultMetadataSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    chunk_id = serializers.CharField()
    chunk_index = serializers.IntegerField()
    file_id = serializers.CharField()
    collection_id = serializers.IntegerField()
    page = serializers.IntegerField(allow_null=True, help_text="first page (PDF)")
    page_end = serializers.IntegerField(allow_null=True, help_text="last page (PDF)")
    heading = serializers.CharField(allow_blank=True, help_text="nearest heading")
    format = serializers.CharField(help_text="the document's format: pdf, docx, html...")
    section_name = serializers.CharField(allow_null=True)
    section_path = serializers.CharField(allow_null=True)
    hop_count = serializers.IntegerField()
    relationship = serializers.CharField()
    reached_from = serializers.CharField(allow_null=True)
    via_entity = serializers.CharField(allow_null=True)
    edge_score = serializers.FloatField(allow_null=True)
    path_score = serializers.FloatField()
    keyword_score = serializers.FloatField()
    matched_keywords = serializers.ListField(child=serializers.CharField())
    section_similarity = serializers.FloatField(allow_null=True)
    routing = serializers.CharField(allow_null=True)
    signals = serializers.DictField(child=serializers.FloatField())
    score_shares = serializers.DictField(child=serializers.FloatField())


class SearchResultSerializer(serializers.Serializer[Any]):
    text = serializers.CharField()
    file_name = serializers.CharField()
    file_path = serializers.CharField()
    directory_name = serializers.CharField()
    similarity = serializers.FloatField()
    hybrid_score = serializers.FloatField()
    keywords_matched = serializers.IntegerField()
    metadata = ResultMetadataSerializer()

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # "source" is a Field attribute, so this field cannot be declared on the class.
        fields = super().get_fields()
        fields["source"] = serializers.ChoiceField(
            choices=["keyword", "vector", "hybrid", "graph", "section_routing"]
        )
        return fields


class SearchResponseSerializer(serializers.Serializer[Any]):
    query = serializers.CharField()
    keywords = serializers.ListField(child=serializers.CharField())
    route = serializers.CharField()
    results = SearchResultSerializer(many=True)
    trace_id = serializers.IntegerField(allow_null=True)
    timings_ms = serializers.DictField(child=serializers.FloatField())
    weights = serializers.DictField(child=serializers.FloatField())
