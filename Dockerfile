# syntax=docker/dockerfile:1
# One image for every process: the web server (the default command) and the Celery worker
# and beat (compose.yaml gives their commands). Production uses real PostgreSQL+pgvector,
# Neo4j 5 and Redis servers, so the embedded services' packages are left out.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
# The CPU build of torch (the default wheel on PyPI carries CUDA, several GB).
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
COPY requirements/torch.txt requirements/base.txt /tmp/requirements/
RUN pip install --index-url "$TORCH_INDEX_URL" -r /tmp/requirements/torch.txt \
    && pip install -r /tmp/requirements/base.txt

FROM ${PYTHON_IMAGE} AS runtime
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings \
    SWITCHBOARD_ENV_FILE= \
    SWITCHBOARD_VAR_DIR=/data \
    STATIC_ROOT=/app/staticfiles \
    HF_HOME=/data/cache/huggingface \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    PORT=8000
RUN groupadd --system --gid 10001 switchboard \
    && useradd --system --uid 10001 --gid switchboard --home-dir /app --no-create-home switchboard \
    && mkdir -p /data/media \
    && chown -R switchboard:switchboard /data
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY --chown=switchboard:switchboard . /app
# Static files are part of the image (WhiteNoise serves them); no secret is needed to
# collect them, so a throw-away one stands in.
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && python -m compileall -q /app
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=10s --start-period=90s --retries=3 \
    CMD ["python", "-m", "core.probe"]
CMD ["sh", "-c", "exec python manage.py serve --host 0.0.0.0 --port \"$PORT\""]
