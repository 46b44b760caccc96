from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .documents import delete_document
from .jobs import Source, create_job, enqueue
from .models import Collection, Document, IngestionJob
from .serializers import (
    CollectionSerializer,
    DocumentSerializer,
    JobSerializer,
    UploadSerializer,
    UploadTargetSerializer,
)


class CollectionList(generics.ListAPIView[Collection]):
    serializer_class = CollectionSerializer

    def get_queryset(self) -> QuerySet[Collection]:
        return Collection.objects.readable_by(self.request.user)


class UploadView(APIView):
    """Files (multipart `files`) into the collection named by `?collection=` that the user
    may write to (a new name creates one they own), under `?folder=` if given."""

    parser_classes = [MultiPartParser]

    @extend_schema(
        parameters=[UploadTargetSerializer],
        request=UploadSerializer,
        responses={202: JobSerializer},
    )
    def post(self, request: Request) -> Response:
        target = UploadTargetSerializer(data=request.query_params)
        target.is_valid(raise_exception=True)
        body = UploadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = {**target.validated_data, **body.validated_data}
        with transaction.atomic():
            collection = Collection.objects.filter(name=data["collection"]).first()
            if collection is None:
                collection = Collection.objects.create(
                    name=data["collection"], owner_id=request.user.pk
                )
            elif not collection.is_writable_by(request.user):
                raise PermissionDenied("you may not add documents to this collection")
            folder = data.get("folder", "").strip("/")
            sources = [
                Source(
                    path=f"{folder}/{upload.name}" if folder else upload.name,
                    read=upload.read,
                    size=upload.size,
                )
                for upload in data["files"]
            ]
            job = create_job(collection=collection, sources=sources, user=request.user)
            enqueue(job)
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class JobList(generics.ListAPIView[IngestionJob]):
    serializer_class = JobSerializer

    def get_queryset(self) -> QuerySet[IngestionJob]:
        return IngestionJob.objects.filter(created_by_id=self.request.user.pk).prefetch_related(
            "items"
        )


class JobDetail(generics.RetrieveAPIView[IngestionJob]):
    """Poll this for a progress bar; the same payload is pushed to the user's channel group."""

    serializer_class = JobSerializer

    def get_queryset(self) -> QuerySet[IngestionJob]:
        readable = Collection.objects.readable_by(self.request.user)
        return IngestionJob.objects.filter(collection__in=readable).prefetch_related("items")


class DocumentList(generics.ListAPIView[Document]):
    serializer_class = DocumentSerializer

    def get_queryset(self) -> QuerySet[Document]:
        documents = Document.objects.filter(
            collection__in=Collection.objects.readable_by(self.request.user)
        )
        collection = self.request.query_params.get("collection")
        if collection:
            documents = (
                documents.filter(collection_id=collection)
                if collection.isdigit()
                else (documents.filter(collection__name=collection))
            )
        return documents.order_by("collection_id", "file_path")


class DocumentDetail(generics.RetrieveDestroyAPIView[Document]):
    serializer_class = DocumentSerializer

    def get_queryset(self) -> QuerySet[Document]:
        return Document.objects.filter(
            collection__in=Collection.objects.readable_by(self.request.user)
        )

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        document = get_object_or_404(self.get_queryset(), pk=kwargs["pk"])
        if not document.collection.is_writable_by(request.user):
            raise PermissionDenied("you may not delete documents of this collection")
        delete_document(document)
        return Response(status=status.HTTP_204_NO_CONTENT)
